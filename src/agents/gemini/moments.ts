/**
 * Gemini CLI's calls as its chat says them, apart from the fold (agents/agent.ts,
 * `MomentReader`): the tool calls of its model's messages (`run_shell_command` as a command line),
 * a finished call failed when marked `error` or when its command exited non-zero (Gemini marks
 * that `success`); `cancelled` is the user stopping it. Shapes: docs/agents.md.
 * @module
 */
import type { MomentNotes, MomentReader } from '../agent.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const SHELL = 'run_shell_command';
const EXIT_CODE = /^Exit Code:\s*(-?\d+)/m;
/** The chat's messages of the model, the ones that carry tool calls. */
const MODEL = 'gemini';

function seeCalls(calls: unknown, notes: MomentNotes): void {
  if (!Array.isArray(calls)) return;
  for (const call of calls) {
    if (!isObj(call) || typeof call.id !== 'string') continue;
    const args = isObj(call.args) ? call.args : {};
    notes.input(args);
    const command = typeof args.command === 'string' ? args.command : null;
    notes.call(call.id, call.name === SHELL ? command : null);
    // A call still waiting has no status.
    if (call.status !== 'success' && call.status !== 'error') continue;
    const text = typeof call.resultText === 'string' ? call.resultText : '';
    const exit = EXIT_CODE.exec(text);
    notes.result(call.id, call.status === 'error' || (exit !== null && exit[1] !== '0'), text);
  }
}

export const geminiMoments: MomentReader = {
  see(entry, notes) {
    if (!isObj(entry)) return;
    if (entry.kind === 'message' && entry.type === MODEL) seeCalls(entry.toolCalls, notes);
    else if (entry.kind === 'set' && Array.isArray(entry.messages))
      for (const m of entry.messages)
        if (isObj(m) && m.type === MODEL) seeCalls(m.toolCalls, notes);
  },
};
