/**
 * Secrets out of the folded session state before it is kept anywhere (the cursor cache on disk,
 * a status print). The fold cuts text between tokens (core/truncate.ts `clip`), so what it keeps
 * holds whole secrets only, and redacting afterwards finds them all. Records are scrubbed once:
 * `scrubbedLine` marks how far the state's text has been through here; text that arrives rarely
 * (tasks, todos, decisions, error patterns) is scrubbed as it is folded (fold.ts).
 *
 * Once found, gone everywhere: the state carries the session's memory of the secrets found so far
 * (`secretMemory`, hashes only; redact/secret-memory.ts). Fresh records are scrubbed with it,
 * and when they teach it a new value, every text of the state is searched for that value again —
 * the prompt that pasted a key before the `.env` line that named it loses it too.
 * @module
 */
import type { SessionState } from '../core/session.ts';
import { forgetRemembered, redactTextSync, type SecretMemory } from '../redact/redact.ts';
import { keepMemory, memoryOf } from './session-memory.ts';

/** `text` with every secret the redactor knows replaced (the session's memory when given). */
export function secretFree(text: string, memory?: SecretMemory): string {
  return text.length < 8 ? text : redactTextSync(text, memory).text;
}

/** Every string of `value` (arrays and plain objects, in place) with `memory`'s values replaced. */
function forgetIn(value: unknown, memory: SecretMemory): void {
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === 'secretMemory') continue;
    const v = record[key];
    if (typeof v === 'string') {
      if (v.length >= 10) record[key] = forgetRemembered(v, memory);
    } else forgetIn(v, memory);
  }
}

/** Redacts the text of every record folded since the last scrub; returns the state. */
export function scrubSessionState(state: SessionState): SessionState {
  const since = state.scrubbedLine;
  if (state.parse.lines <= since) return state;
  const memory = memoryOf(state);
  // The fold may have learned values already (a secret file read): they count as new here.
  const known = Math.min(state.secretMemoryApplied ?? 0, memory.size);
  const free = (text: string) => secretFree(text, memory);
  const fresh = <T extends { line: number }>(records: T[], scrub: (r: T) => void) => {
    for (const r of records) if (r.line > since) scrub(r);
  };
  fresh(state.prompts, (p) => (p.text = free(p.text)));
  fresh(state.requestLog, (p) => (p.text = free(p.text)));
  if (state.firstPrompt && state.firstPrompt.line > since)
    state.firstPrompt.text = free(state.firstPrompt.text);
  fresh(state.recentTools, (t) => {
    t.args = free(t.args);
    t.result = free(t.result);
    if (t.target !== undefined) t.target = free(t.target);
  });
  fresh(state.pendingTools, (p) => {
    p.args = free(p.args);
    if (p.target !== undefined) p.target = free(p.target);
    if (p.meta) for (const k of Object.keys(p.meta)) p.meta[k] = free(p.meta[k]!);
  });
  fresh(state.assistantTexts, (t) => (t.text = free(t.text)));
  fresh(state.checks, (c) => {
    c.command = free(c.command);
    c.output = free(c.output);
  });
  fresh(state.commands, (c) => (c.command = free(c.command)));
  const failure = state.lastFailure;
  if (failure && failure.line > since) {
    failure.target = free(failure.target);
    failure.output = free(failure.output);
  }
  fresh(state.backgroundTasks, (b) => (b.description = free(b.description)));
  fresh(state.apiErrors, (e) => (e.message = free(e.message)));
  if (memory.size > known) {
    // A value learned now may stand in any text kept earlier, or earlier in this pass.
    forgetIn(state, memory);
    keepMemory(state, memory);
    state.secretMemoryApplied = memory.size;
  } else if (memory.size > 0) {
    // What the fold scrubbed without the memory (tasks, todos, decisions, error patterns).
    forgetIn(
      { a: state.todos, b: state.tasks, c: state.decisions, d: state.errorPatterns },
      memory,
    );
  }
  state.scrubbedLine = state.parse.lines;
  return state;
}
