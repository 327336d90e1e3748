/**
 * One line of `claude -p --output-format stream-json --verbose` → the events `shim loop` acts on.
 *
 * Shapes are those of Claude Code 2.1.330 (captures in test/fixtures/stream-json/). Like the
 * transcript reader, nothing here rejects a line for extra or missing fields: a mistyped field
 * becomes null (or 0 in usage), and a line we do not understand becomes `other`. The supervisor
 * reads the child's stdout live, so this must never throw, whatever the child prints.
 *
 * Stream-json emits one `assistant` event per content block; the blocks of one model response
 * share `message.id` and usage. Each event becomes its own `response` here, and callers that
 * count responses group them by `messageId`.
 * @module
 */
import type { AgentEvent, BackgroundTask, StreamUsage, ToolUse } from '../headless-event.ts';
import { getContextTokens, isObject, readUsage } from './entry.ts';

export type { AgentEvent, BackgroundTask, StreamUsage, ToolUse } from '../headless-event.ts';

type Obj = Record<string, unknown>;

/** Tool output can be megabytes; the supervisor only shows or pattern-matches its start. */
const MAX_RESULT_TEXT = 2000;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const finite = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const field = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);

/** Epoch seconds (as rate_limit_info carries them) → epoch ms. */
function secondsToMs(value: unknown): number | null {
  const seconds = finite(value);
  return seconds === null ? null : seconds * 1000;
}

/** Concatenated `text` blocks of a message's content. */
function readText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
      text += block.text;
    }
  }
  return text;
}

/** Text of a tool_result's content (a string or text blocks), capped at MAX_RESULT_TEXT. */
function readResultText(content: unknown): string {
  if (typeof content === 'string') return content.slice(0, MAX_RESULT_TEXT);
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content) {
    if (text.length >= MAX_RESULT_TEXT) break;
    if (isObject(block) && typeof block.text === 'string') {
      text += (text ? '\n' : '') + block.text;
    }
  }
  return text.slice(0, MAX_RESULT_TEXT);
}

const isSidechain = (raw: Obj): boolean => typeof raw.parent_tool_use_id === 'string';

/** Claude Code's own error messages arrive as assistant events from the `<synthetic>` model. */
function isApiError(raw: Obj, message: Obj): boolean {
  if (raw.is_api_error_message === true) return true;
  return message.model === '<synthetic>' && typeof raw.error === 'string';
}

function readAssistant(raw: Obj): AgentEvent[] {
  const message = raw.message;
  if (!isObject(message)) return [{ kind: 'other', type: 'assistant', subtype: null }];
  if (isApiError(raw, message)) {
    const limit = field(raw.api_error_params, 'rate_limit_info');
    return [
      {
        kind: 'api_error',
        status: finite(raw.api_error_status),
        error: str(raw.error),
        apiError: str(raw.api_error),
        text: readText(message.content),
        resetsAt: secondsToMs(field(limit, 'resetsAt')),
      },
    ];
  }
  const toolUses: ToolUse[] = [];
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isObject(block) || block.type !== 'tool_use') continue;
      toolUses.push({
        id: str(block.id) ?? '',
        name: str(block.name) ?? '',
        input: isObject(block.input) ? block.input : {},
      });
    }
  }
  const usage: StreamUsage = readUsage(message.usage, message.context_management) ?? {
    input: 0,
    cacheCreation: 0,
    cacheRead: 0,
    output: 0,
    cleared: 0,
  };
  return [
    {
      kind: 'response',
      sessionId: str(raw.session_id),
      messageId: str(message.id) ?? str(raw.uuid) ?? '',
      model: str(message.model),
      usage,
      contextTokens: getContextTokens(usage),
      text: readText(message.content),
      toolUses,
      sidechain: isSidechain(raw),
    },
  ];
}

function readUser(raw: Obj): AgentEvent[] {
  const content = field(raw.message, 'content');
  if (!Array.isArray(content)) return [];
  const events: AgentEvent[] = [];
  const sidechain = isSidechain(raw);
  const results = content.filter((block) => isObject(block) && block.type === 'tool_result');
  // The line's structured result belongs to its one tool_result (Claude Code writes one a line).
  const structured = results.length === 1 ? raw.tool_use_result : undefined;
  const id = str(field(structured, 'id'));
  const output = id ? { id, durable: field(structured, 'durable') === true } : null;
  for (const block of results) {
    if (!isObject(block)) continue;
    events.push({
      kind: 'tool_result',
      toolUseId: str(block.tool_use_id) ?? '',
      isError: block.is_error === true,
      text: readResultText(block.content),
      sidechain,
      ...(output ? { output } : {}),
    });
  }
  return events;
}

/**
 * The tasks of a `background_tasks_changed` line. `ambient` ones (watchers, not work) are left
 * out: Claude Code itself tells hosts not to count them as activity.
 */
function readBackgroundTasks(value: unknown): BackgroundTask[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((task): BackgroundTask[] =>
    isObject(task) && task.ambient !== true
      ? [
          {
            id: str(task.task_id) ?? str(task.id) ?? '',
            type: str(task.task_type) ?? str(task.type) ?? '',
            description: str(task.description) ?? '',
          },
        ]
      : [],
  );
}

function readSystem(raw: Obj): AgentEvent {
  const subtype = str(raw.subtype);
  switch (subtype) {
    case 'init':
      return {
        kind: 'init',
        sessionId: str(raw.session_id) ?? '',
        model: str(raw.model),
        cwd: str(raw.cwd),
        cliVersion: str(raw.claude_code_version),
      };
    case 'api_retry':
      return {
        kind: 'api_retry',
        attempt: finite(raw.attempt),
        maxRetries: finite(raw.max_retries),
        delayMs: finite(raw.retry_delay_ms),
        errorStatus: finite(raw.error_status),
        error: str(raw.error),
      };
    case 'status':
      // The same subtype also reports the end of compaction (status null) and other states.
      if (raw.status === 'compacting') return { kind: 'compacting' };
      break;
    case 'background_tasks_changed':
      return { kind: 'background_tasks', tasks: readBackgroundTasks(raw.tasks) };
    case 'task_notification':
      return { kind: 'task_ended', taskId: str(raw.task_id) ?? '', status: str(raw.status) ?? '' };
    case 'compact_boundary': {
      // The stream writes snake_case; camelCase is the transcript's spelling of the same data.
      const meta = isObject(raw.compact_metadata)
        ? raw.compact_metadata
        : isObject(raw.compactMetadata)
          ? raw.compactMetadata
          : {};
      return {
        kind: 'compact',
        trigger: str(meta.trigger) ?? '',
        preTokens: finite(meta.pre_tokens ?? meta.preTokens),
        postTokens: finite(meta.post_tokens ?? meta.postTokens),
      };
    }
  }
  return { kind: 'other', type: 'system', subtype };
}

function readRateLimit(raw: Obj): AgentEvent {
  const info = isObject(raw.rate_limit_info) ? raw.rate_limit_info : {};
  return {
    kind: 'rate_limit',
    status: str(info.status) ?? '',
    resetsAt: secondsToMs(info.resetsAt),
    limitType: str(info.rateLimitType),
  };
}

function readResult(raw: Obj): AgentEvent {
  const errors = Array.isArray(raw.errors)
    ? raw.errors.filter((e): e is string => typeof e === 'string')
    : [];
  return {
    kind: 'result',
    sessionId: str(raw.session_id),
    isError: raw.is_error === true,
    subtype: str(raw.subtype) ?? '',
    text: str(raw.result) ?? '',
    costUsd: finite(raw.total_cost_usd),
    numTurns: finite(raw.num_turns),
    durationMs: finite(raw.duration_ms),
    terminalReason: str(raw.terminal_reason),
    apiErrorStatus: finite(raw.api_error_status),
    errors,
  };
}

/**
 * One line → its events (an assistant line yields a response, or an api_error for synthetic
 * error messages; a user line yields 0..n tool_result). [] for blank, non-JSON, or non-object
 * lines. Never throws.
 */
export function parseStreamLine(line: string): AgentEvent[] {
  if (typeof line !== 'string' || line.trim().length === 0) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return [];
  }
  if (!isObject(raw)) return [];
  switch (raw.type) {
    case 'assistant':
      return readAssistant(raw);
    case 'user':
      return readUser(raw);
    case 'system':
      return [readSystem(raw)];
    case 'rate_limit_event':
      return [readRateLimit(raw)];
    case 'result':
      return [readResult(raw)];
    default:
      return [{ kind: 'other', type: str(raw.type) ?? '', subtype: str(raw.subtype) }];
  }
}
