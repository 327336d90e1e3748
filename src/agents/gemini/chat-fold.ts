/**
 * Folds Gemini CLI chat records, in file order, into the agent-neutral session model
 * (core/session.ts): the same requests, responses, tool calls and results, todos, checks,
 * files and compactions the Claude Code reader produces.
 *
 * Gemini rewrites a message by appending it again with the same id (tokens first, then its tool
 * calls with their results): `progress` remembers what of each recent message is folded already,
 * so a rewrite adds only what is new. A `$rewindTo` cannot be undone in place: the reader folds
 * the file afresh without the rewound records (chat-reader.ts).
 *
 * Context = the newest model message's `tokens.input` (the API's promptTokenCount). A compression
 * is a `$set.messages` that brings a new `<state_snapshot>` message (0.61.0), or, where nothing
 * marks it (older builds), the context falling by more than half.
 *
 * Requests, checks and error patterns fold as in every agent's fold (transcript/fold-parts.ts).
 * Tool calls and their results fold in chat-fold-tools.ts.
 * @module
 */
import {
  LIMITS,
  pushBounded,
  touchBounded,
  type CompactionRecord,
  type ResponseRecord,
  type SessionState,
} from '../../core/session.ts';
import { clip } from '../../core/truncate.ts';
import { foldPrompt, noteError } from '../../transcript/fold-parts.ts';
import { secretFree } from '../../transcript/scrub.ts';
import { foldToolCall, foldToolResult } from './chat-fold-tools.ts';
import type { GeminiMessage, GeminiRecord } from './chat-record.ts';

/** What of one message is folded already. */
export type MessageProgress = {
  id: string;
  tokens: boolean;
  textChars: number;
  tools: string[];
  results: string[];
};

/** The Gemini part of a cursor: JSON, kept beside the session state. */
export type GeminiFoldState = {
  v: 1;
  /** The most recent messages' progress (rewrites touch the newest ones). */
  progress: MessageProgress[];
  /** Ids seen further back, so an old id written again is not taken for a new message. */
  seen: string[];
  /** A compression was recorded since the newest response (no second one from the drop). */
  compactedSinceResponse: boolean;
};

export type GeminiFoldListener = {
  onResponse?: (response: ResponseRecord) => void;
  onCompaction?: (compaction: CompactionRecord) => void;
  /** After a model message's tokens were folded (the replay judges it with what it knows). */
  onResponseTokens?: (state: SessionState, line: number, at: number | null) => void;
};

const PROGRESS_LIMIT = 40;
const SEEN_LIMIT = 400;
/** A drop of the context below this share of the previous one, from at least DROP_MIN. */
const DROP_RATIO = 0.5;
const DROP_MIN_TOKENS = 20_000;
const CHARS_PER_TOKEN = 4;

export function createGeminiFoldState(): GeminiFoldState {
  return { v: 1, progress: [], seen: [], compactedSinceResponse: false };
}

function touchTime(state: SessionState, at: number | null): void {
  if (at === null) return;
  if (state.startedAt === null || at < state.startedAt) state.startedAt = at;
  if (state.lastActivityAt === null || at > state.lastActivityAt) state.lastActivityAt = at;
}

/** Completes the newest response, if any. */
export function finalizeGeminiResponse(state: SessionState, listener?: GeminiFoldListener): void {
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

function foldCompaction(
  state: SessionState,
  gemini: GeminiFoldState,
  line: number,
  at: number | null,
  preTokens: number | null,
  postTokens: number | null,
  listener?: GeminiFoldListener,
): void {
  finalizeGeminiResponse(state, listener);
  const last = state.lastResponse;
  const record: CompactionRecord = {
    line,
    trigger: 'auto',
    preTokens,
    postTokens,
    at,
    cliVersion: state.cliVersion,
    model: state.model,
    afterTurn: state.turns,
    lastContextTokens: last?.contextTokens ?? null,
    inputSince: state.appendedChars > 0,
    toolsPending: state.pendingTools.length > 0,
    gapMs: at !== null && last?.at != null ? Math.max(0, at - last.at) : null,
    precomputed: false,
    idleMarker: false,
  };
  pushBounded(state.compactions, record, LIMITS.compactions);
  state.compactionCount++;
  state.toolCallsAtCompaction = state.toolCalls;
  state.responses = [];
  state.appendedChars = 0;
  state.postCompactTokens = postTokens ?? 0;
  gemini.compactedSinceResponse = true;
  listener?.onCompaction?.(record);
}

function progressFor(gemini: GeminiFoldState, id: string): MessageProgress | null {
  return gemini.progress.find((p) => p.id === id) ?? null;
}

function startProgress(gemini: GeminiFoldState, id: string): MessageProgress {
  const progress: MessageProgress = { id, tokens: false, textChars: 0, tools: [], results: [] };
  pushBounded(gemini.progress, progress, PROGRESS_LIMIT);
  touchBounded(gemini.seen, id, SEEN_LIMIT);
  return progress;
}

/** `<hook_context>…</hook_context>` blocks are what hooks (shim's restores) added to a prompt. */
const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>/g;
const BOOTSTRAP = /^\s*<(session_context|state_snapshot)>/;
const WORKSPACE = /Workspace Directories:\**\s*\n\s*-\s*(\S[^\n]*)/;

/** The CLI's opening context names the workspace: the session's directory. */
function noteWorkspace(state: SessionState, text: string): void {
  const workspace = WORKSPACE.exec(text)?.[1]?.trim();
  if (workspace && state.cwd === null) state.cwd = workspace;
}

function foldUser(state: SessionState, m: GeminiMessage, line: number): void {
  state.userMessages++;
  if (m.at !== null) state.lastInputAt = m.at;
  // Tool results are folded from the model message's toolCalls, which carry their status.
  if (m.onlyToolResults) return;
  if (BOOTSTRAP.test(m.text)) {
    noteWorkspace(state, m.text);
    return;
  }
  state.lastContentLine = line;
  state.appendedChars += m.chars;
  const prompt = m.text.replace(HOOK_CONTEXT, '').trim();
  if (prompt) foldPrompt(state, prompt, line, m.at);
}

const DECISION =
  /\b(?:I'll|I will|we'll|we will|let's|going to)\s+(?:use|go with|switch|keep|avoid|stick with|replace)\b|\binstead of\b|\b(?:decided|chose|opted)\b|\bthe (?:fix|approach|root cause) (?:is|was|will be)\b/i;

function foldText(state: SessionState, text: string, line: number, at: number | null): void {
  pushBounded(
    state.assistantTexts,
    { line, text: clip(text, LIMITS.assistantTextChars), at },
    LIMITS.assistantTexts,
  );
  if (!DECISION.test(text)) return;
  for (const sentence of secretFree(text).split(/(?<=[.!?])\s+|\n+/)) {
    const trimmed = sentence.trim().replace(/^[-*•\d.)\s]+/, '');
    if (trimmed.length >= 20 && trimmed.length <= LIMITS.decisionChars && DECISION.test(trimmed))
      touchBounded(state.decisions, trimmed, LIMITS.decisions);
  }
}

function foldModel(
  state: SessionState,
  gemini: GeminiFoldState,
  m: GeminiMessage,
  line: number,
  progress: MessageProgress,
  listener?: GeminiFoldListener,
): void {
  state.lastContentLine = line;
  if (m.model) state.model = m.model;
  const current = state.current;
  if (current && current.key === m.id) {
    current.lastLine = line;
    listener?.onResponseTokens?.(state, line, m.at);
  }
  if (m.tokens && !progress.tokens && m.tokens.input > 0) {
    progress.tokens = true;
    const previous = state.current?.contextTokens ?? state.lastResponse?.contextTokens ?? null;
    if (
      previous !== null &&
      !gemini.compactedSinceResponse &&
      previous >= DROP_MIN_TOKENS &&
      m.tokens.input < previous * DROP_RATIO
    ) {
      foldCompaction(state, gemini, line, m.at, previous, m.tokens.input, listener);
    }
    finalizeGeminiResponse(state, listener);
    state.turns++;
    state.current = {
      key: m.id,
      turn: state.turns,
      firstLine: line,
      lastLine: line,
      contextTokens: m.tokens.input,
      outputTokens: m.tokens.output + m.tokens.thoughts,
      at: m.at,
      model: m.model ?? state.model ?? '',
      latencyMs:
        m.at !== null && state.lastInputAt !== null ? Math.max(0, m.at - state.lastInputAt) : null,
      toolUseIds: [],
    };
    state.postCompactTokens = null;
    state.appendedChars = 0;
    gemini.compactedSinceResponse = false;
    listener?.onResponseTokens?.(state, line, m.at);
  }
  if (m.text.length > progress.textChars) {
    const fresh = m.text.slice(progress.textChars).trim();
    progress.textChars = m.text.length;
    if (fresh) foldText(state, fresh, line, m.at);
  }
  for (const call of m.toolCalls) {
    if (!progress.tools.includes(call.id)) {
      progress.tools.push(call.id);
      state.current?.toolUseIds.push(call.id);
      foldToolCall(state, call, line, m.at);
    }
    if (call.status !== null && !progress.results.includes(call.id)) {
      progress.results.push(call.id);
      foldToolResult(state, call, line, m.at);
    }
  }
}

/** "Context compressed from 71% to 20%." (0.33+) or the older "…compressed from: N to M tokens". */
const COMPRESSED_NOTICE = /compressed (?:context|from)|context compressed/i;

function foldNotice(
  state: SessionState,
  gemini: GeminiFoldState,
  m: GeminiMessage,
  line: number,
  listener?: GeminiFoldListener,
): void {
  if (m.type === 'error') {
    noteError(state, `gemini_error: ${clip(m.text.replace(/\s+/g, ' '), 60)}`);
    return;
  }
  if (m.type === 'info' && COMPRESSED_NOTICE.test(m.text) && !gemini.compactedSinceResponse) {
    const tokens = /from:?\s*([\d,]+)\s*to\s*([\d,]+)\s*tokens/i.exec(m.text);
    const n = (s: string | undefined) => (s ? Number(s.replace(/,/g, '')) : null);
    foldCompaction(
      state,
      gemini,
      line,
      m.at,
      n(tokens?.[1]) ?? state.current?.contextTokens ?? state.lastResponse?.contextTokens ?? null,
      n(tokens?.[2]),
      listener,
    );
  }
}

function foldMessage(
  state: SessionState,
  gemini: GeminiFoldState,
  m: GeminiMessage,
  line: number,
  listener?: GeminiFoldListener,
): void {
  touchTime(state, m.at);
  let progress = progressFor(gemini, m.id);
  if (!progress) {
    // Written before, beyond what progress keeps: its first write was folded then.
    if (gemini.seen.includes(m.id)) return;
    progress = startProgress(gemini, m.id);
    if (m.type === 'user') {
      foldUser(state, m, line);
      return;
    }
  }
  if (m.type === 'gemini') foldModel(state, gemini, m, line, progress, listener);
  else if (m.type !== 'user' && progress.textChars === 0) {
    progress.textChars = m.text.length;
    foldNotice(state, gemini, m, line, listener);
  }
}

/** `$set.messages`: the history as the CLI now holds it. A new snapshot means it compressed. */
function foldHistoryRewrite(
  state: SessionState,
  gemini: GeminiFoldState,
  messages: GeminiMessage[],
  chars: number,
  line: number,
  at: number | null,
  listener?: GeminiFoldListener,
): void {
  let compressed = false;
  for (const m of messages) {
    if (gemini.seen.includes(m.id)) continue;
    touchBounded(gemini.seen, m.id, SEEN_LIMIT);
    if (m.type !== 'user') continue;
    if (/^\s*<state_snapshot>/.test(m.text)) compressed = true;
    else if (/^\s*<session_context>/.test(m.text)) noteWorkspace(state, m.text);
  }
  if (!compressed) return;
  const pre = state.current?.contextTokens ?? state.lastResponse?.contextTokens ?? null;
  foldCompaction(state, gemini, line, at, pre, Math.round(chars / CHARS_PER_TOKEN), listener);
}

/** Folds one record read from `line` (1-based) into the state. */
export function foldGeminiRecord(
  state: SessionState,
  gemini: GeminiFoldState,
  record: GeminiRecord,
  line: number,
  listener?: GeminiFoldListener,
): void {
  switch (record.kind) {
    case 'header':
      state.sessionId = record.sessionId;
      touchTime(state, record.at);
      return;
    case 'message':
      foldMessage(state, gemini, record, line, listener);
      return;
    case 'set':
      touchTime(state, record.lastUpdated);
      if (record.messages)
        foldHistoryRewrite(
          state,
          gemini,
          record.messages,
          record.chars,
          line,
          record.lastUpdated,
          listener,
        );
      return;
    case 'rewind':
    case 'other':
      return;
    default:
      record satisfies never;
  }
}
