/**
 * Adding shim's MCP server to, and taking it out of, a file with an `mcpServers` object
 * (`~/.claude.json` or `<project>/.mcp.json`), keeping every other key and server. Pure: returns a
 * new object and what changed.
 * @module
 */
import { isJsonObject, setKey, type JsonObject } from './json-text.ts';
import { mcpServerConfig, sameMcpServer, shimMcpBin, type McpServerEntry } from './mcp-entries.ts';
import { AppError } from '../../../core/errors.ts';

export type McpChange =
  | { kind: 'mcp-added'; name: string; path: string; command: string }
  | { kind: 'mcp-replaced'; name: string; path: string; command: string; previous: string }
  | { kind: 'mcp-removed'; name: string; path: string; command: string };

function describeServer(server: unknown): string {
  if (!isJsonObject(server)) return JSON.stringify(server);
  const args = Array.isArray(server.args) ? server.args.map(String) : [];
  return [String(server.command ?? ''), ...args].join(' ');
}

function serversOf(config: JsonObject, path: string): JsonObject | null {
  const servers = config.mcpServers;
  if (servers === undefined) return null;
  if (!isJsonObject(servers)) {
    throw new AppError(
      'CONFIG_INVALID',
      `"mcpServers" in ${path} is not an object; shim did not touch the file`,
      'fix it (Claude Code cannot read it either), then run the command again',
    );
  }
  return servers;
}

/** True when the file has a server of shim's under any name. */
export function containsShimMcp(config: JsonObject): boolean {
  const servers = isJsonObject(config.mcpServers) ? config.mcpServers : {};
  return Object.values(servers).some((server) => shimMcpBin(server) !== null);
}

export function addShimMcpServers(
  config: JsonObject,
  entries: McpServerEntry[],
  path: string,
): { config: JsonObject; changes: McpChange[]; createdKey: boolean; notes: string[] } {
  const current = serversOf(config, path);
  const servers: JsonObject = { ...(current ?? {}) };
  const changes: McpChange[] = [];
  const notes: string[] = [];
  for (const entry of entries) {
    const existing = Object.hasOwn(servers, entry.name) ? servers[entry.name] : undefined;
    if (sameMcpServer(existing, entry)) continue;
    const command = [entry.command, ...entry.args].join(' ');
    if (existing !== undefined && shimMcpBin(existing) === null) {
      notes.push(
        `${path} already has an MCP server named "${entry.name}" that is not shim's ` +
          `(${describeServer(existing)}); left it alone, so shim's MCP server is not registered`,
      );
      continue;
    }
    setKey(servers, entry.name, mcpServerConfig(entry));
    changes.push(
      existing === undefined
        ? { kind: 'mcp-added', name: entry.name, path, command }
        : {
            kind: 'mcp-replaced',
            name: entry.name,
            path,
            command,
            previous: describeServer(existing),
          },
    );
  }
  if (changes.length === 0) return { config, changes, createdKey: false, notes };
  const next: JsonObject = { ...config };
  setKey(next, 'mcpServers', servers);
  return { config: next, changes, createdKey: current === null, notes };
}

/** Removes every server of shim's; drops `mcpServers` too when shim created it and it is empty. */
export function removeShimMcpServers(
  config: JsonObject,
  createdKey: boolean,
  path: string,
): { config: JsonObject; changes: McpChange[] } {
  const current = serversOf(config, path);
  if (current === null) return { config, changes: [] };
  const servers: JsonObject = {};
  const changes: McpChange[] = [];
  for (const [name, server] of Object.entries(current)) {
    if (shimMcpBin(server) !== null) {
      changes.push({ kind: 'mcp-removed', name, path, command: describeServer(server) });
    } else {
      setKey(servers, name, server);
    }
  }
  if (changes.length === 0) return { config, changes };
  const next: JsonObject = { ...config };
  if (createdKey && Object.keys(servers).length === 0) delete next.mcpServers;
  else setKey(next, 'mcpServers', servers);
  return { config: next, changes };
}
