/**
 * Secrets out of the folded session state before it is kept anywhere (the cursor cache on disk,
 * a status print). The fold cuts text between tokens (core/truncate.ts `clip`), so what it keeps
 * holds whole secrets only, and redacting afterwards finds them all. Records are scrubbed once:
 * `scrubbedLine` marks how far the state's text has been through here; text that arrives rarely
 * (tasks, todos, decisions, error patterns) is scrubbed as it is folded (fold.ts).
 * @module
 */
import type { SessionState } from '../core/session.ts';
import { redactTextSync } from '../redact/redact.ts';

/** `text` with every secret the redactor knows replaced (synchronous rules: no secretlint). */
export function secretFree(text: string): string {
  return text.length < 8 ? text : redactTextSync(text).text;
}

/** Redacts the text of every record folded since the last scrub; returns the state. */
export function scrubSessionState(state: SessionState): SessionState {
  const since = state.scrubbedLine;
  if (state.parse.lines <= since) return state;
  const fresh = <T extends { line: number }>(records: T[], scrub: (r: T) => void) => {
    for (const r of records) if (r.line > since) scrub(r);
  };
  fresh(state.prompts, (p) => (p.text = secretFree(p.text)));
  fresh(state.requestLog, (p) => (p.text = secretFree(p.text)));
  if (state.firstPrompt && state.firstPrompt.line > since)
    state.firstPrompt.text = secretFree(state.firstPrompt.text);
  fresh(state.recentTools, (t) => {
    t.args = secretFree(t.args);
    t.result = secretFree(t.result);
  });
  fresh(state.pendingTools, (p) => {
    p.args = secretFree(p.args);
    if (p.meta) for (const k of Object.keys(p.meta)) p.meta[k] = secretFree(p.meta[k]!);
  });
  fresh(state.assistantTexts, (t) => (t.text = secretFree(t.text)));
  fresh(state.checks, (c) => {
    c.command = secretFree(c.command);
    c.output = secretFree(c.output);
  });
  fresh(state.backgroundTasks, (b) => (b.description = secretFree(b.description)));
  fresh(state.apiErrors, (e) => (e.message = secretFree(e.message)));
  state.scrubbedLine = state.parse.lines;
  return state;
}
