/**
 * `shim mcp`: the server over stdio. stdout carries the protocol and nothing else, so anything
 * that would print there (a stray console.log in a dependency) is sent to stderr instead.
 * @module
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpDeps } from './context.ts';
import { createMcpServer } from './server.ts';

/** Serves until stdin closes or the process is told to stop; resolves once closed. */
export async function runStdioServer(deps: McpDeps): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const server = createMcpServer(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  const stop = () => {
    server.close().catch(() => {});
  };
  process.stdin.once('end', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.connect(transport);
  await closed;
}
