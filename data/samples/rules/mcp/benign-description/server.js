// Look-alike: an MCP server that manages SSH keys, whose description says what it does with them.
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { z } = require('zod');
const server = new McpServer({ name: 'ssh-keys', version: '1.0.0' });
server.tool(
  'list_keys',
  'Lists the public keys in ~/.ssh (file names and fingerprints only, never private key contents).',
  { dir: z.string().optional() },
  async () => ({ content: [{ type: 'text', text: 'id_ed25519.pub' }] }),
);
module.exports = server;
