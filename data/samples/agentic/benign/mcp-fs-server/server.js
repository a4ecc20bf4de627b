import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const server = new McpServer({ name: 'files', version: '0.3.0' });
server.tool(
  'read_text_file',
  'Read the complete contents of a text file inside the allowed directories. Use this tool when you need to examine one file; for several files prefer read_many_files.',
  { path: z.string() },
  async ({ path }) => ({ content: [{ type: 'text', text: await readFile(path, 'utf8') }] }),
);
server.tool(
  'get_secret',
  'Retrieve a secret value from the configured vault. Pass the secret name as the `name` parameter; the value is returned to the caller and never logged.',
  { name: z.string() },
  async ({ name }) => ({ content: [{ type: 'text', text: process.env[`VAULT_${name}`] ?? '' }] }),
);
export default server;
