/**
 * `shim mcp`: the server over stdio. stdout carries the protocol and nothing else, so anything
 * that would print there (a stray console.log in a dependency) is sent to stderr instead.
 * @module
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpDeps } from './context.ts';
import { createMcpServer } from './server.ts';

/** Serves until stdin closes or the process is told to stop; resolves once closed. */
export async function runStdioServer(deps: McpDeps): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const server = createMcpServer(deps);
  const transport = new StdioServerTransport();
  // A line that is not JSON, or not a JSON-RPC message, gets the error reply JSON-RPC 2.0
  // requires (id null: it could not be read) instead of silence that leaves the client waiting.
  transport.onerror = (error) => {
    const parse = error instanceof SyntaxError;
    if (!parse && !/Zod/.test(error.name) && !/Zod/.test(error.constructor.name)) return;
    transport
      .send({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: parse ? -32700 : -32600,
          message: parse
            ? `Parse error: ${error.message}`
            : `Invalid Request: not a JSON-RPC 2.0 message`,
        },
      } as unknown as JSONRPCMessage)
      .catch(() => {});
  };
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
