/**
 * Codex's hook trust (docs/agents.md, "Codex CLI", verified with 0.169.0): a hook from
 * hooks.json runs only when config.toml has
 * `[hooks.state."<hooks.json path>:<event label>:<group #>:<handler #>"] trusted_hash = "sha256:<hex>"`
 * matching it, the hex being the SHA-256 of the compact JSON (keys sorted) of
 * `{event_name, matcher?, hooks: [{type, command, timeout, async, statusMessage?}]}` for that one
 * handler. A hook without it, or with a stale one ("modified"), is skipped silently.
 * @module
 */
import { createHash } from 'node:crypto';

/** Codex's event names → the snake_case labels of its trust keys. */
export function eventLabel(event: string): string {
  return event.replace(/(?<=[a-z])([A-Z])/g, '_$1').toLowerCase();
}

export type CodexHandler = {
  type: 'command';
  command: string;
  timeout?: number;
  async?: boolean;
  statusMessage?: string;
};

export type CodexHookGroup = { matcher?: string; hooks: CodexHandler[] };

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** The trusted_hash Codex expects for one handler of one group. */
export function trustHash(event: string, group: CodexHookGroup, handler: CodexHandler): string {
  const identity = {
    event_name: eventLabel(event),
    ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
    hooks: [
      {
        type: handler.type,
        command: handler.command,
        timeout: handler.timeout ?? 600,
        async: handler.async ?? false,
        ...(handler.statusMessage === undefined ? {} : { statusMessage: handler.statusMessage }),
      },
    ],
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sortKeys(identity)))
    .digest('hex')}`;
}

export function trustKey(hooksPath: string, event: string, group: number, handler: number): string {
  return `${hooksPath}:${eventLabel(event)}:${group}:${handler}`;
}
