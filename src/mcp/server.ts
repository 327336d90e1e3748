/**
 * The MCP server: shim's tools for the agent itself. One tool per file under tools/; every SDK
 * import stays inside src/mcp so an SDK upgrade touches only this folder, and nothing here is
 * reachable from the hooks.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpDeps } from './context.ts';
import { registerCheckResumeTool } from './tools/check-resume.ts';
import { registerCreateCheckpointTool } from './tools/create-checkpoint.ts';
import { registerForgetTool } from './tools/forget.ts';
import { registerGetCheckpointTool } from './tools/get-checkpoint.ts';
import { registerGetCrashRiskTool } from './tools/get-crash-risk.ts';
import { registerListCheckpointsTool } from './tools/list-checkpoints.ts';
import { registerModEventTool } from './tools/mod-event.ts';
import { registerSearchCheckpointsTool } from './tools/search-checkpoints.ts';
import { registerTimelineTool } from './tools/timeline.ts';
import { registerRecentContextTool } from './tools/recent-context.ts';

export type { McpDeps } from './context.ts';

const INSTRUCTIONS =
  'shim keeps this session from losing its work. shim_get_crash_risk says how close the context ' +
  'is to auto-compaction; shim_checkpoint saves the working state; shim_check_resume finds an ' +
  'interrupted earlier session and its resume prompt; shim_search, shim_list_checkpoints and ' +
  'shim_get_checkpoint look up what past sessions knew. The calling session is taken to be the ' +
  "most recently written session log (of any agent shim serves) of the server's working directory.";

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: 'shim', title: 'shim', version: deps.version },
    { instructions: INSTRUCTIONS },
  );
  registerGetCrashRiskTool(server, deps);
  registerCreateCheckpointTool(server, deps);
  registerCheckResumeTool(server, deps);
  registerListCheckpointsTool(server, deps);
  registerGetCheckpointTool(server, deps);
  registerTimelineTool(server, deps);
  registerRecentContextTool(server, deps);
  registerForgetTool(server, deps);
  registerSearchCheckpointsTool(server, deps);
  registerModEventTool(server, deps);
  return server;
}
