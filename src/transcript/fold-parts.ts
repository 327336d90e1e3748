/**
 * The folds every agent's log shares: a user request, the assistant's words and decisions, a
 * check command's result, an error pattern, the completion of a response. Each agent's fold
 * (src/agents/<agent>/fold.ts) reads its own line shapes and calls these with the state it owns.
 * @module
 */
import { classifyCheckCommand } from '../core/checkpoint/check-command.ts';
import { keepRequest } from '../core/checkpoint/checkpoint-limits.ts';
import {
  LIMITS,
  pushBounded,
  touchBounded,
  type PendingToolCall,
  type ResponseRecord,
  type SessionState,
} from '../core/session.ts';
import { clip, clipStart } from '../core/truncate.ts';
import type { FoldListener } from './reader.ts';
import { secretFree } from './scrub.ts';

export function noteError(state: SessionState, raw: string): void {
  const pattern = secretFree(raw);
  const i = state.errorPatterns.indexOf(pattern);
  if (i >= 0) state.errorPatterns.splice(i, 1);
  pushBounded(state.errorPatterns, pattern, LIMITS.errorPatterns);
}

/** Completes the streaming response, if any. */
export function finalizeResponse(state: SessionState, listener?: FoldListener): void {
  const current = state.current;
  if (!current) return;
  state.current = null;
  const record: ResponseRecord = {
    turn: current.turn,
    firstLine: current.firstLine,
    lastLine: current.lastLine,
    contextTokens: current.contextTokens,
    outputTokens: current.outputTokens,
    at: current.at,
    model: current.model,
    latencyMs: current.latencyMs,
  };
  pushBounded(state.responses, record, LIMITS.responses);
  state.lastResponse = record;
  if (record.latencyMs !== null) pushBounded(state.latencies, record.latencyMs, LIMITS.latencies);
  listener?.onResponse?.(record);
}

/** A sentence where the assistant states a choice worth carrying into the next session. */
const DECISION =
  /\b(?:I'll|I will|we'll|we will|let's|going to)\s+(?:use|go with|switch|keep|avoid|stick with|replace)\b|\binstead of\b|\b(?:decided|chose|opted)\b|\bthe (?:fix|approach|root cause) (?:is|was|will be)\b/i;

export function foldAssistantText(
  state: SessionState,
  text: string,
  line: number,
  at: number | null,
): void {
  const last = state.assistantTexts[state.assistantTexts.length - 1];
  // One response streams its text blocks as separate lines: keep them together.
  if (last && state.current && last.line >= state.current.firstLine) {
    last.text = clip(`${last.text}\n${text}`, LIMITS.assistantTextChars);
    // New text in an old record: scrub.ts goes by line, so the record moves to this one.
    last.line = line;
  } else {
    pushBounded(
      state.assistantTexts,
      { line, text: clip(text, LIMITS.assistantTextChars), at },
      LIMITS.assistantTexts,
    );
  }
  if (!DECISION.test(text)) return;
  // Redacted whole before it is cut into sentences: a sentence alone may lose the context
  // (`looker_token =` on the line before) that shows its value is a secret.
  for (const sentence of secretFree(text).split(/(?<=[.!?])\s+|\n+/)) {
    const trimmed = sentence.trim().replace(/^[-*•\d.)\s]+/, '');
    if (trimmed.length >= 20 && trimmed.length <= LIMITS.decisionChars && DECISION.test(trimmed)) {
      touchBounded(state.decisions, trimmed, LIMITS.decisions);
    }
  }
}

/** A user request: in full among the recent ones, whole (or head and tail) in the log of all. */
export function foldPrompt(
  state: SessionState,
  text: string,
  line: number,
  at: number | null,
): void {
  state.promptCount++;
  const full = { line, text: clip(text, LIMITS.promptChars), at };
  pushBounded(state.prompts, full, LIMITS.prompts);
  state.firstPrompt ??= full;
  state.requestLog.push({ line, text: keepRequest(text), at });
  // The first request says what the work is for: past the limit, the second-oldest goes.
  if (state.requestLog.length > LIMITS.requestLog) state.requestLog.splice(1, 1);
}

/** The last result of each kind of check command (tests, type check, lint, build). */
export function foldCheck(
  state: SessionState,
  command: string,
  success: boolean,
  output: string,
  at: number | null,
  line: number,
): void {
  const kind = classifyCheckCommand(command);
  if (kind === null) return;
  const i = state.checks.findIndex((c) => c.kind === kind);
  if (i >= 0) state.checks.splice(i, 1);
  const tail = output.trimEnd();
  pushBounded(
    state.checks,
    {
      kind,
      command: clip(command, 200),
      success,
      output:
        tail.length > LIMITS.checkOutputChars
          ? `…${clipStart(tail, LIMITS.checkOutputChars - 1)}`
          : tail,
      at,
      line,
    },
    LIMITS.checks,
  );
}

/**
 * Whether call `id` started a shell command in the background: its result says the command
 * started, so it is no result of the command (no check passing, no command finished).
 */
export function startedInBackground(state: SessionState, id: string): boolean {
  return state.backgroundTasks.some((t) => t.id === id && t.kind === 'shell');
}

/** Whitespace folded: two runs of one command line are one command. */
const sameCommand = (a: string, b: string) =>
  a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * A shell command the agent just called (its fold read the line from the call): the newest of
 * `state.commands`, `running` until its result. A command run again moves to the end.
 */
export function foldCommandCall(
  state: SessionState,
  id: string,
  command: string,
  line: number,
  at: number | null,
): void {
  if (command.trim() === '') return;
  const i = state.commands.findIndex((c) => sameCommand(c.command, command));
  if (i >= 0) state.commands.splice(i, 1);
  pushBounded(
    state.commands,
    {
      id,
      command: clip(command, LIMITS.commandChars),
      status: 'running',
      exitCode: null,
      at,
      line,
    },
    LIMITS.commands,
  );
}

/** How a tool call ended, as its agent's fold read the result. */
export type ToolOutcome = {
  success: boolean;
  /** The user turned the call down or interrupted it: not a failure of the work. */
  stopped: boolean;
  /** As the agent reported it, when it did. */
  exitCode: number | null;
  /** Its output as the agent shows it (without the agent's own headers). */
  output: string;
  at: number | null;
  line: number;
};

/**
 * A tool call's result: ends its command's run, and a failure (not the user stopping it) becomes
 * the session's newest. Called by every agent's fold with the call it had pending, once the
 * call is counted in `toolCalls`.
 */
export function foldToolOutcome(
  state: SessionState,
  pending: PendingToolCall | undefined,
  id: string,
  outcome: ToolOutcome,
): void {
  const run = state.commands.find((c) => c.id === id);
  // Started in the background: it runs on until the agent says how it ended.
  if (run && !(outcome.success && startedInBackground(state, id))) {
    run.status = outcome.stopped ? 'stopped' : outcome.success ? 'ok' : 'failed';
    run.exitCode = outcome.exitCode ?? (outcome.success && !outcome.stopped ? 0 : null);
  }
  if (outcome.success || outcome.stopped) return;
  state.lastFailure = {
    id,
    tool: pending?.tool ?? 'unknown',
    target: pending?.meta?.command ?? pending?.target ?? '',
    exitCode: outcome.exitCode,
    output: clip(outcome.output, LIMITS.failureChars),
    call: state.toolCalls,
    at: outcome.at,
    line: outcome.line,
  };
}
