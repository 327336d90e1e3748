/**
 * The MCP server shim registers with Claude Code (`shim mcp` over stdio), where Claude Code keeps
 * MCP servers, and how to recognise shim's entry again. settings.json holds no MCP servers:
 *
 * - user scope: `mcpServers` in Claude Code's global config, `$CLAUDE_CONFIG_DIR/.claude.json` or
 *   `~/.claude.json` (a non-empty legacy `<config dir>/.config.json` wins; checked against
 *   `claude mcp add --scope user` of the pinned CLI 2.1.330);
 * - project scope: `mcpServers` in `<project>/.mcp.json`.
 *
 * Recognition, like the hook commands': an entry is shim's when one of its args is a file named
 * `shim.cjs` / `shim.js` / `shim` followed by `mcp` (or the command is `shim` and the first arg
 * `mcp`).
 * @module
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Env } from '../../../store/home/home.ts';
import { getClaudeConfigDir } from '../sessions.ts';
import type { Json, JsonObject } from './json-text.ts';
import type { SettingsScope } from './settings-file.ts';
import type { ShimInvocation } from './shim-command.ts';

export type McpServerEntry = {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
};

/** The name shim's server has in `mcpServers`; Claude Code calls its tools `mcp__shim__<tool>`. */
export const SHIM_MCP_NAME = 'shim';

export function getShimMcpEntries(invocation: ShimInvocation): McpServerEntry[] {
  return [{ name: SHIM_MCP_NAME, command: invocation.node, args: [invocation.bin, 'mcp'] }];
}

/** The entry as Claude Code stores a stdio server (`claude mcp add` writes the same shape). */
export function mcpServerConfig(entry: McpServerEntry): JsonObject {
  return {
    type: 'stdio',
    command: entry.command,
    args: entry.args,
    ...(entry.env ? { env: entry.env } : {}),
  };
}

function isFileWithContent(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size > 0;
  } catch {
    return false;
  }
}

/** Where Claude Code keeps the MCP servers of a scope. */
export function getMcpConfigPath(scope: SettingsScope, context: { env: Env; cwd: string }): string {
  if (scope === 'project') return join(resolve(context.cwd), '.mcp.json');
  const legacy = join(getClaudeConfigDir(context.env), '.config.json');
  if (isFileWithContent(legacy)) return legacy;
  const configured = context.env.CLAUDE_CONFIG_DIR?.trim();
  return configured ? join(resolve(configured), '.claude.json') : join(homedir(), '.claude.json');
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** The bundle a server config of shim's runs (its `shim.cjs` arg), or null when it is not shim's. */
export function shimMcpBin(server: Json | undefined): string | null {
  if (typeof server !== 'object' || server === null || Array.isArray(server)) return null;
  const { command, args } = server;
  if (typeof command !== 'string') return null;
  const words = Array.isArray(args) ? args : [];
  if (!words.every((w) => typeof w === 'string')) return null;
  const all = [command, ...(words as string[])];
  for (let i = 0; i + 1 < all.length; i++) {
    const name = baseName(all[i]!);
    if ((name === 'shim.cjs' || name === 'shim.js' || name === 'shim') && all[i + 1] === 'mcp') {
      return all[i]!;
    }
  }
  return null;
}

/** True when `server` runs exactly what `entry` asks for (stdio, same command, args and env). */
export function sameMcpServer(server: Json | undefined, entry: McpServerEntry): boolean {
  if (typeof server !== 'object' || server === null || Array.isArray(server)) return false;
  if (server.type !== undefined && server.type !== 'stdio') return false;
  const env = server.env === undefined ? {} : server.env;
  return (
    server.command === entry.command &&
    JSON.stringify(server.args ?? []) === JSON.stringify(entry.args) &&
    JSON.stringify(env) === JSON.stringify(entry.env ?? {})
  );
}
