/**
 * shim's entries in a Gemini CLI settings.json (0.61.0): one command hook per event under
 * `hooks.<Event>` (`{matcher, hooks: [{name, type: "command", command, timeout (ms)}]}`), and the
 * MCP server under `mcpServers.shim` (`{command, args}`). Hooks run without a trust step, and the
 * command runs through a shell. docs/agents.md, "Gemini CLI".
 * @module
 */
import { isObj } from '../chat-record.ts';
import { GEMINI_SETTINGS_EVENTS } from '../hook-payload.ts';

export type ShimInvocation = { readonly node: string; readonly bin: string };

export const SHIM_ENTRY_NAME = 'shim';
/** Gemini kills a hook after this many ms; shim's own work stays far below it. */
const HOOK_TIMEOUT_MS = 60_000;

type Obj = Record<string, unknown>;

const SAFE_WORD = /^[A-Za-z0-9_\-.,/:@%+=]+$/;
function quote(word: string): string {
  return SAFE_WORD.test(word) ? word : `"${word.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The shell words that start this shim (Gemini runs hooks and `!{…}` through a shell). */
export function shimStartWords(invocation: ShimInvocation): string {
  return `${quote(invocation.node)} ${quote(invocation.bin)}`;
}

export function geminiHookCommand(invocation: ShimInvocation, event: string): string {
  return `${shimStartWords(invocation)} gemini-hook ${event}`;
}

/** A hook command shim wrote: it runs `gemini-hook` of some shim bin. */
export function isShimGeminiCommand(command: unknown): boolean {
  return typeof command === 'string' && /\sgemini-hook\s+\w+\s*$/.test(command);
}

function isShimGroup(group: unknown): boolean {
  return (
    isObj(group) &&
    Array.isArray(group.hooks) &&
    group.hooks.length > 0 &&
    group.hooks.every((h) => isObj(h) && isShimGeminiCommand(h.command))
  );
}

/** A copy of `settings` with shim's hook groups and MCP server taken out (empty parents too). */
export function withoutShim(settings: Obj): Obj {
  const out: Obj = { ...settings };
  if (isObj(out.hooks)) {
    const hooks: Obj = {};
    for (const [event, groups] of Object.entries(out.hooks)) {
      if (!Array.isArray(groups)) {
        hooks[event] = groups;
        continue;
      }
      const kept = groups.filter((g) => !isShimGroup(g));
      if (kept.length > 0) hooks[event] = kept;
    }
    if (Object.keys(hooks).length > 0) out.hooks = hooks;
    else delete out.hooks;
  }
  if (isObj(out.mcpServers) && isShimMcp(out.mcpServers[SHIM_ENTRY_NAME])) {
    const servers = { ...out.mcpServers };
    delete servers[SHIM_ENTRY_NAME];
    if (Object.keys(servers).length > 0) out.mcpServers = servers;
    else delete out.mcpServers;
  }
  return out;
}

function isShimMcp(server: unknown): boolean {
  return (
    isObj(server) &&
    Array.isArray(server.args) &&
    server.args[server.args.length - 1] === 'mcp' &&
    server.args.some((a) => typeof a === 'string' && /shim(\.c?js)?$/.test(a))
  );
}

/** `settings` with shim's current entries in place of any it had. */
export function withShim(settings: Obj, invocation: ShimInvocation): Obj {
  const out = withoutShim(settings);
  const hooks: Obj = isObj(out.hooks) ? { ...out.hooks } : {};
  for (const event of GEMINI_SETTINGS_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    groups.push({
      matcher: '*',
      hooks: [
        {
          name: SHIM_ENTRY_NAME,
          type: 'command',
          command: geminiHookCommand(invocation, event),
          timeout: HOOK_TIMEOUT_MS,
        },
      ],
    });
    hooks[event] = groups;
  }
  out.hooks = hooks;
  const servers: Obj = isObj(out.mcpServers) ? { ...out.mcpServers } : {};
  if (servers[SHIM_ENTRY_NAME] === undefined) {
    servers[SHIM_ENTRY_NAME] = { command: invocation.node, args: [invocation.bin, 'mcp'] };
    out.mcpServers = servers;
  }
  return out;
}

/** What of shim is in `settings`: the events it hooks, whether its MCP server is there. */
export function inspectShim(settings: Obj): { events: string[]; bins: string[]; mcp: boolean } {
  const events: string[] = [];
  const bins = new Set<string>();
  if (isObj(settings.hooks)) {
    for (const [event, groups] of Object.entries(settings.hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const group of groups) {
        if (!isShimGroup(group)) continue;
        events.push(event);
        for (const h of (group as { hooks: Obj[] }).hooks) {
          const words = String(h.command).match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? [];
          const bin = words[1]?.replace(/^"|"$/g, '');
          if (bin) bins.add(bin);
        }
      }
    }
  }
  const mcp = isObj(settings.mcpServers) && isShimMcp(settings.mcpServers[SHIM_ENTRY_NAME]);
  return { events, bins: [...bins], mcp };
}
