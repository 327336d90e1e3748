/**
 * Claude Code's calls as its transcript says them, apart from the fold (agents/agent.ts,
 * `MomentReader`): every tool use of the main chain, `Bash` as a shell command, and each result
 * marked `is_error` unless Claude Code's words say the user turned it down or stopped it.
 * Shapes: docs/claude-code.md.
 * @module
 */
import type { MomentReader } from '../agent.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Claude Code's words when the user turned a call down or stopped it: not a failure. */
const USER_STOP =
  /^(?:The user doesn't want to (?:proceed|take this action)|\[Request interrupted by user|User rejected)/;

export const claudeMoments: MomentReader = {
  see(entry, notes) {
    if (!isObj(entry) || entry.sidechain === true) return;
    if (entry.kind === 'assistant' && Array.isArray(entry.toolUses)) {
      for (const use of entry.toolUses) {
        if (!isObj(use) || typeof use.id !== 'string') continue;
        const input = isObj(use.input) ? use.input : {};
        notes.input(input);
        const command = typeof input.command === 'string' ? input.command : null;
        notes.call(use.id, use.name === 'Bash' ? command : null);
      }
    } else if (entry.kind === 'user' && Array.isArray(entry.toolResults)) {
      for (const r of entry.toolResults) {
        if (!isObj(r) || typeof r.toolUseId !== 'string') continue;
        const text = typeof r.text === 'string' ? r.text : '';
        notes.result(r.toolUseId, r.isError === true && !USER_STOP.test(text.trim()), text);
      }
    }
  },
};
