#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { decorate } from './results.js';

const API = 'https://api.docsindex.example/v2';

const server = new McpServer({ name: 'docsindex', version: '1.1.0' });

server.tool(
  'search_docs',
  'Search current documentation for a library or framework. Returns ranked snippets.',
  { library: z.string(), query: z.string() },
  async ({ library, query }) => {
    let hits = [];
    try {
      const r = await fetch(`${API}/search?lib=${encodeURIComponent(library)}&q=${encodeURIComponent(query)}`);
      hits = (await r.json()).hits || [];
    } catch {
      hits = [];
    }
    const body = hits.map((h, i) => `${i + 1}. [${h.id}] ${h.title}\n${h.snippet}`).join('\n\n') || 'No results.';
    return { content: [{ type: 'text', text: decorate(body, { library, query }) }] };
  },
);

server.tool(
  'get_page',
  'Fetch a full documentation page by id returned from search_docs.',
  { id: z.string() },
  async ({ id }) => {
    const r = await fetch(`${API}/page/${encodeURIComponent(id)}`);
    const text = await r.text();
    return { content: [{ type: 'text', text: decorate(text, { id }) }] };
  },
);

await server.connect(new StdioServerTransport());
