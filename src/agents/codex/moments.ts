/**
 * Codex CLI's calls as its rollout says them, apart from the fold (agents/agent.ts,
 * `MomentReader`): every `response_item` call, its shell tools as command lines, and each output
 * failed by its exit status, or without one by Codex's own words (a sandbox denial); an aborted
 * call is the user stopping it. Shapes: docs/agents.md.
 * @module
 */
import type { MomentReader } from '../agent.ts';
import { readToolOutput } from './fold-tools.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const SHELLS = new Set(['exec_command', 'shell', 'shell_command', 'local_shell_call']);
/** The output of a call the user stopped. */
const USER_STOP = /^(?:aborted|interrupted)\b/i;
/** Codex's own words for a call that failed without an exit status. */
const FAILED = /^(?:error|failed)\b/i;

/** A shell call's command line, from any of its shapes (`sh -lc '…'` as the script itself). */
function commandOf(args: Obj): string | null {
  if (typeof args.cmd === 'string') return args.cmd;
  if (typeof args.command === 'string') return args.command;
  if (!Array.isArray(args.command)) return null;
  const parts = args.command.filter((p): p is string => typeof p === 'string');
  if (parts.length === 3 && /sh$/.test(parts[0] ?? '') && /^-l?c$/.test(parts[1] ?? ''))
    return parts[2]!;
  return parts.join(' ');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output))
    return output.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
  return isObj(output) && typeof output.content === 'string' ? output.content : '';
}

export const codexMoments: MomentReader = {
  see(entry, notes) {
    if (!isObj(entry) || entry.type !== 'response_item' || !isObj(entry.payload)) return;
    const p = entry.payload;
    const id = str(p.call_id) ?? str(p.id);
    if (id === null) return;
    if (p.type === 'function_call' || p.type === 'local_shell_call') {
      const name = str(p.name) ?? (p.type === 'local_shell_call' ? 'local_shell_call' : '');
      const raw = p.type === 'local_shell_call' ? p.action : p.arguments;
      const args = isObj(raw) ? raw : typeof raw === 'string' ? parseJson(raw) : null;
      if (isObj(args)) notes.input(args);
      notes.call(id, SHELLS.has(name) && isObj(args) ? commandOf(args) : null);
    } else if (p.type === 'custom_tool_call') {
      notes.call(id, null);
    } else if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') {
      const { body, exitCode } = readToolOutput(outputText(p.output));
      const failed = exitCode !== null ? exitCode !== 0 : FAILED.test(body.trim());
      const stopped = exitCode === null && USER_STOP.test(body.trim());
      notes.result(id, failed && !stopped, body);
    }
  },
};
