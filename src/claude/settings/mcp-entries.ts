/**
 * The MCP servers shim registers with Claude Code. None yet: `shim mcp` does not exist. This is
 * the hook point for it — return the entries here and teach install/uninstall where they go
 * (user scope: `~/.claude.json` "mcpServers"; project scope: `<cwd>/.mcp.json`; settings.json
 * holds no MCP servers).
 * @module
 */
import type { ShimInvocation } from './shim-command.ts';

export type McpServerEntry = {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
};

export function getShimMcpEntries(_invocation: ShimInvocation): McpServerEntry[] {
  return [];
}
