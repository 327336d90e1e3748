/** shim's MCP server and an SDK client, linked in memory: the tools as a client calls them. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, type McpDeps } from '../../src/mcp/server.ts';

export async function connectInMemory(deps: McpDeps): Promise<Client> {
  const server = createMcpServer(deps);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'shim-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}
