/**
 * Folds Codex CLI rollout lines (`{timestamp, ordinal?, type, payload}`) into the agent-neutral
 * session state (docs/agents.md, "Codex CLI"). Unknown line types and payloads are skipped.
 *
 * - A model response is an `event_msg` `token_count` with `info`: its context is
 *   `last_token_usage.total_tokens` (never the cumulative `total_token_usage`); a line repeating
 *   the previous cumulative total is the same response written twice (0.44–0.104), and one with
 *   input and output 0 is Codex's estimate after a compaction, not a response.
 * - A `compacted` line is a compaction. When Codex summarised locally, the summary's own response
 *   (an assistant message the `compacted` message ends with) is not part of the conversation.
 * - Requests: `event_msg user_message` (≤0.1xx) or `item_completed` UserMessage (0.169).
 * - Tools: `function_call` / `custom_tool_call` and their outputs, paired by `call_id`
 *   (fold-tools.ts); the shell tools fold as shim's neutral `Bash`, the name Codex's own hooks
 *   give them.
 * @module
 */
import {
  LIMITS,
  pushBounded,
  type CompactionRecord,
  type SessionState,
} from '../../core/session.ts';
import { clip } from '../../core/truncate.ts';
import {
  finalizeResponse,
  foldAssistantText,
  foldPrompt,
  noteError,
} from '../../transcript/fold-parts.ts';
import type { FoldListener } from '../../transcript/reader.ts';
import { foldToolCall, foldToolOutput } from './fold-tools.ts';

export type CodexLine = {
  type: string;
  payload: Record<string, unknown>;
  at: number | null;
};

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const num = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : 0;

/** A parsed rollout line; anything that is not one becomes an `other` line. */
export function readCodexLine(value: unknown): CodexLine {
  if (!isObject(value)) return { type: 'other', payload: {}, at: null };
  const at = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : NaN;
  return {
    type: typeof value.type === 'string' ? value.type : 'other',
    payload: isObject(value.payload) ? value.payload : {},
    at: Number.isFinite(at) ? at : null,
  };
}

function prompt(state: SessionState, text: string, line: number, at: number | null): void {
  const trimmed = text.trim();
  if (!trimmed) return;
  // 0.169 may record one request both as an event and as an item: count it once.
  const last = state.prompts[state.prompts.length - 1];
  if (last && line - last.line <= 3 && last.text === clip(trimmed, LIMITS.promptChars)) return;
  state.userMessages++;
  state.lastInputAt = at ?? state.lastInputAt;
  state.lastContentLine = line;
  state.appendedChars += trimmed.length;
  foldPrompt(state, trimmed, line, at);
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function foldTokenCount(
  state: SessionState,
  p: Obj,
  line: number,
  at: number | null,
  listener?: FoldListener,
): void {
  const info = p.info;
  if (!isObject(info)) return; // rate limits only
  if (typeof info.model_context_window === 'number' && info.model_context_window > 0)
    state.logWindowTokens = info.model_context_window;
  const last = isObject(info.last_token_usage) ? info.last_token_usage : null;
  const total = isObject(info.total_token_usage) ? info.total_token_usage : null;
  if (!last) return;
  const input = num(last.input_tokens);
  const output = num(last.output_tokens);
  const context = num(last.total_tokens) || input + output;
  if (input === 0 && output === 0) {
    // Codex's estimate of the context right after a compaction: the best known size until the
    // next response.
    if (context > 0) state.postCompactTokens = context;
    return;
  }
  const key = total ? `${num(total.total_tokens)}:${context}` : null;
  if (key !== null && key === state.lastUsageKey) return;
  state.lastUsageKey = key;
  // The calls this response asked for: written before its token_count, after the one before.
  // PostToolUse names its call (`tool_use_id` = `call_id`), so a hook knows its response is on
  // disk (hook/hook-response.ts) instead of waiting for it.
  const since = state.current?.lastLine ?? 0;
  const toolUseIds = [
    ...state.recentTools.map((t) => ({ id: t.id, line: t.callLine ?? t.line })),
    ...state.pendingTools,
  ]
    .filter((t) => t.line > since && t.line < line)
    .map((t) => t.id);
  finalizeResponse(state, listener);
  state.turns++;
  state.current = {
    key: key ?? String(line),
    turn: state.turns,
    firstLine: line,
    lastLine: line,
    contextTokens: context,
    outputTokens: output,
    at,
    model: state.model ?? 'unknown',
    latencyMs:
      at !== null && state.lastInputAt !== null ? Math.max(0, at - state.lastInputAt) : null,
    toolUseIds,
  };
  state.postCompactTokens = null;
  state.appendedChars = 0;
}

function foldCompacted(
  state: SessionState,
  p: Obj,
  line: number,
  at: number | null,
  listener?: FoldListener,
): void {
  const message = typeof p.message === 'string' ? p.message : '';
  const summary = state.assistantTexts[state.assistantTexts.length - 1];
  const current = state.current;
  // A local compaction's summary came back as a response of its own: not the conversation's.
  if (
    current &&
    summary &&
    message &&
    summary.line < current.firstLine &&
    summary.line > (state.lastResponse?.lastLine ?? 0) &&
    message.includes(summary.text.slice(0, 200))
  ) {
    state.current = null;
    state.turns--;
    state.assistantTexts.pop();
  }
  finalizeResponse(state, listener);
  const record: CompactionRecord = {
    line,
    trigger: 'auto',
    preTokens: state.lastResponse?.contextTokens ?? null,
    postTokens: null,
    at,
    cliVersion: state.cliVersion,
    model: state.model,
    afterTurn: state.turns,
    lastContextTokens: state.lastResponse?.contextTokens ?? null,
    inputSince: state.appendedChars > 0,
    toolsPending: state.pendingTools.length > 0,
    gapMs:
      at !== null && state.lastResponse?.at != null
        ? Math.max(0, at - state.lastResponse.at)
        : null,
    precomputed: false,
    idleMarker: false,
  };
  pushBounded(state.compactions, record, LIMITS.compactions);
  state.compactionCount++;
  state.toolCallsAtCompaction = state.toolCalls;
  state.responses = [];
  state.appendedChars = 0;
  state.postCompactTokens = 0;
  state.lastUsageKey = null;
  listener?.onCompaction?.(record);
}

function foldEvent(
  state: SessionState,
  p: Obj,
  line: number,
  at: number | null,
  listener?: FoldListener,
): void {
  switch (p.type) {
    case 'token_count':
      foldTokenCount(state, p, line, at, listener);
      return;
    case 'user_message':
      if (typeof p.message === 'string') prompt(state, p.message, line, at);
      return;
    case 'item_completed': {
      const item = p.item;
      if (isObject(item) && item.type === 'UserMessage')
        prompt(state, messageText(item.content), line, at);
      return;
    }
    case 'task_started':
      if (typeof p.model_context_window === 'number' && p.model_context_window > 0)
        state.logWindowTokens = p.model_context_window;
      return;
    case 'error':
    case 'stream_error': {
      const message = str(p.message) ?? 'error';
      state.apiErrorCount++;
      pushBounded(
        state.apiErrors,
        { at, line, status: null, message: clip(message, 200) },
        LIMITS.apiErrors,
      );
      noteError(state, `api_error ${message}`);
      return;
    }
    default:
      return;
  }
}

/** Folds one rollout line read from `line` (1-based) into the state. */
export function foldCodexLine(
  state: SessionState,
  entry: CodexLine,
  line: number,
  listener?: FoldListener,
): void {
  const { payload: p, at } = entry;
  if (at !== null) {
    if (state.startedAt === null || at < state.startedAt) state.startedAt = at;
    if (state.lastActivityAt === null || at > state.lastActivityAt) state.lastActivityAt = at;
  }
  switch (entry.type) {
    case 'session_meta': {
      // A forked or sub-agent rollout starts with its parent's meta too: the first one wins.
      state.sessionId ??= str(p.id) ?? str(p.session_id);
      state.cwd ??= str(p.cwd);
      state.cliVersion ??= str(p.cli_version);
      if (isObject(p.git)) state.gitBranch ??= str(p.git.branch);
      return;
    }
    case 'turn_context':
      state.model = str(p.model) ?? state.model;
      state.cwd = str(p.cwd) ?? state.cwd;
      return;
    case 'event_msg':
      foldEvent(state, p, line, at, listener);
      return;
    case 'response_item':
      switch (p.type) {
        case 'function_call':
        case 'custom_tool_call':
        case 'local_shell_call':
          foldToolCall(state, p, line, at);
          return;
        case 'function_call_output':
        case 'custom_tool_call_output':
          foldToolOutput(state, p, line, at);
          return;
        case 'message':
          if (p.role === 'assistant') {
            const text = messageText(p.content);
            state.lastContentLine = line;
            if (text.trim()) foldAssistantText(state, text, line, at);
          }
          return;
        default:
          return;
      }
    case 'compacted':
      foldCompacted(state, p, line, at, listener);
      return;
    default:
      return;
  }
}
