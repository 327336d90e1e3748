/**
 * Lenient reading of one transcript line's JSON into the few shapes shim folds.
 *
 * The format is internal to Claude Code and grows fields between versions, so nothing here
 * rejects an entry for what it has; an entry only becomes `other` when it lacks what we need.
 * Hand-written narrowing instead of a schema library: this runs once per line on cold parses
 * of tens of megabytes.
 * @module
 */
import { clip, clipStart } from '../../core/truncate.ts';

export type Usage = {
  input: number;
  cacheCreation: number;
  cacheRead: number;
  output: number;
  /** Input tokens the server cleared from old tool results (context_management edits). */
  cleared: number;
};

export type ToolUseBlock = { id: string; name: string; input: unknown };
export type ToolResultBlock = { toolUseId: string; isError: boolean; text: string; chars: number };

type Envelope = {
  sessionId: string | null;
  cwd: string | null;
  gitBranch: string | null;
  cliVersion: string | null;
  slug: string | null;
  at: number | null;
  sidechain: boolean;
};

export type AssistantEntry = Envelope & {
  kind: 'assistant';
  key: string;
  model: string;
  usage: Usage | null;
  synthetic: boolean;
  apiError: boolean;
  text: string;
  toolUses: ToolUseBlock[];
};

export type UserEntry = Envelope & {
  kind: 'user';
  isMeta: boolean;
  isCompactSummary: boolean;
  /** The prompt text when the message is a plain user message. */
  text: string | null;
  toolResults: ToolResultBlock[];
  /** Structured tool output Claude Code attaches (TodoWrite newTodos, TaskCreate task, …). */
  toolUseResult: unknown;
  contentChars: number;
};

export type CompactEntry = Envelope & {
  kind: 'compact';
  trigger: 'auto' | 'manual';
  preTokens: number | null;
  postTokens: number | null;
  /** The summary was prepared in the background and swapped in (2.1.330 `precomputed`). */
  precomputed: boolean;
  /** Claude Code said it compacted while idle, before the prompt cache expired. */
  idle: boolean;
};

/** The conversation moved to another session (`continued-in`). */
export type ContinuedEntry = Envelope & { kind: 'continued'; continuedInSessionId: string };

export type MicrocompactEntry = Envelope & { kind: 'microcompact'; tokensSaved: number };

export type ApiErrorEntry = Envelope & {
  kind: 'api_error';
  status: number | null;
  message: string;
};

export type OtherEntry = Envelope & { kind: 'other'; type: string | null };

export type TranscriptEntry =
  | AssistantEntry
  | UserEntry
  | CompactEntry
  | ContinuedEntry
  | MicrocompactEntry
  | ApiErrorEntry
  | OtherEntry;

type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/** Parses an ISO timestamp to epoch ms; null when absent or invalid. */
export function parseTimestamp(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function readEnvelope(raw: Obj): Envelope {
  return {
    sessionId: str(raw.sessionId),
    cwd: str(raw.cwd),
    gitBranch: str(raw.gitBranch),
    cliVersion: str(raw.version),
    slug: str(raw.slug),
    at: parseTimestamp(raw.timestamp),
    sidechain: raw.isSidechain === true,
  };
}

/** Tokens cleared on the server for this request: `context_management.applied_edits[]`. */
export function readClearedTokens(contextManagement: unknown): number {
  if (!isObject(contextManagement) || !Array.isArray(contextManagement.applied_edits)) return 0;
  let cleared = 0;
  for (const edit of contextManagement.applied_edits)
    if (isObject(edit)) cleared += num(edit.cleared_input_tokens);
  return cleared;
}

export function readUsage(value: unknown, contextManagement?: unknown): Usage | null {
  if (!isObject(value)) return null;
  return {
    input: num(value.input_tokens),
    cacheCreation: num(value.cache_creation_input_tokens),
    cacheRead: num(value.cache_read_input_tokens),
    output: num(value.output_tokens),
    cleared: readClearedTokens(contextManagement),
  };
}

/**
 * The context as Claude Code counts it toward compaction: everything the request sent, plus
 * what the server cleared from it (the conversation still holds those tool results), output
 * excluded.
 */
export function getContextTokens(usage: Usage): number {
  return usage.input + usage.cacheCreation + usage.cacheRead + usage.cleared;
}

/** At most 2,000 characters of a result are kept: its start, a marker, and its end. */
const RESULT_TAIL_CHARS = 400;
const RESULT_MARKER = '\n…\n';
const RESULT_HEAD_CHARS = 2000 - RESULT_TAIL_CHARS - RESULT_MARKER.length;

/** The start and the end of a long text: runners print their verdict last. */
function headAndTail(text: string): string {
  if (text.length <= 2000) return text;
  // Cut between tokens: half a secret is one no redaction rule recognises anymore.
  const head = clip(text, RESULT_HEAD_CHARS + 1).slice(0, -1);
  const tail = clipStart(text, RESULT_TAIL_CHARS);
  return `${head}${RESULT_MARKER}${tail}`;
}

/** Text of a tool_result's content (a string or an array of text blocks), its start and end. */
function readResultText(content: unknown): { text: string; chars: number } {
  if (typeof content === 'string') return { text: headAndTail(content), chars: content.length };
  if (!Array.isArray(content)) return { text: '', chars: 0 };
  const texts: string[] = [];
  let chars = 0;
  for (const block of content) {
    if (!isObject(block)) continue;
    if (typeof block.text === 'string') {
      chars += block.text.length;
      texts.push(headAndTail(block.text));
    } else if (block.type === 'image') {
      chars += 6000; // images cost roughly 1.5k tokens each
    }
  }
  return { text: headAndTail(texts.join('\n')), chars };
}

function readAssistant(raw: Obj, env: Envelope): AssistantEntry | OtherEntry {
  const message = raw.message;
  if (!isObject(message)) return { ...env, kind: 'other', type: 'assistant' };
  const model = str(message.model) ?? '';
  const id = str(message.id) ?? str(raw.uuid) ?? '';
  const toolUses: ToolUseBlock[] = [];
  let text = '';
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_use' && typeof block.id === 'string') {
        toolUses.push({ id: block.id, name: str(block.name) ?? 'unknown', input: block.input });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        text += block.text;
      }
    }
  }
  return {
    ...env,
    kind: 'assistant',
    key: `${id}:${str(raw.requestId) ?? ''}`,
    model,
    usage: readUsage(
      message.usage,
      message.context_management ??
        (isObject(raw.context_management) ? raw.context_management : null),
    ),
    synthetic: model === '<synthetic>',
    apiError: raw.isApiErrorMessage === true,
    text,
    toolUses,
  };
}

function readUser(raw: Obj, env: Envelope): UserEntry | OtherEntry {
  const message = raw.message;
  if (!isObject(message)) return { ...env, kind: 'other', type: 'user' };
  const content = message.content;
  const toolResults: ToolResultBlock[] = [];
  let text: string | null = null;
  let contentChars = 0;
  if (typeof content === 'string') {
    text = content;
    contentChars = content.length;
  } else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_result') {
        const result = readResultText(block.content);
        contentChars += result.chars;
        toolResults.push({
          toolUseId: str(block.tool_use_id) ?? '',
          isError: block.is_error === true,
          text: result.text,
          chars: result.chars,
        });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        text = (text ?? '') + block.text;
        contentChars += block.text.length;
      } else if (block.type === 'image') {
        contentChars += 6000;
      }
    }
  }
  return {
    ...env,
    kind: 'user',
    isMeta: raw.isMeta === true,
    isCompactSummary: raw.isCompactSummary === true,
    text,
    toolResults,
    toolUseResult: raw.toolUseResult,
    contentChars,
  };
}

function readSystem(raw: Obj, env: Envelope): TranscriptEntry {
  switch (raw.subtype) {
    case 'compact_boundary': {
      const meta = isObject(raw.compactMetadata)
        ? raw.compactMetadata
        : isObject(raw.compact_metadata)
          ? raw.compact_metadata
          : {};
      const pre = meta.preTokens ?? meta.pre_tokens;
      const post = meta.postTokens ?? meta.post_tokens;
      const content = str(raw.content) ?? '';
      return {
        ...env,
        kind: 'compact',
        trigger: meta.trigger === 'manual' ? 'manual' : 'auto',
        preTokens: typeof pre === 'number' ? pre : null,
        postTokens: typeof post === 'number' ? post : null,
        precomputed: meta.precomputed === true,
        idle: meta.trigger === 'idle' || meta.idle === true || /\bidle\b/i.test(content),
      };
    }
    case 'microcompact_boundary': {
      const meta = isObject(raw.microcompactMetadata) ? raw.microcompactMetadata : {};
      return { ...env, kind: 'microcompact', tokensSaved: num(meta.tokensSaved) };
    }
    case 'api_error': {
      const error = isObject(raw.error) ? raw.error : {};
      const inner = isObject(error.error) && isObject(error.error.error) ? error.error.error : {};
      return {
        ...env,
        kind: 'api_error',
        status: typeof error.status === 'number' ? error.status : null,
        message: str(inner.type) ?? str(inner.message) ?? str(raw.content) ?? 'api error',
      };
    }
    default:
      return { ...env, kind: 'other', type: 'system' };
  }
}

/** Classifies one parsed transcript line. Never throws on unexpected shapes. */
export function readEntry(raw: unknown): TranscriptEntry {
  if (!isObject(raw)) {
    return { ...readEnvelope({}), kind: 'other', type: null };
  }
  const env = readEnvelope(raw);
  switch (raw.type) {
    case 'assistant':
      return readAssistant(raw, env);
    case 'user':
      return readUser(raw, env);
    case 'system':
      return readSystem(raw, env);
    case 'continued-in': {
      const next = str(raw.continuedInSessionId) ?? str(raw.continued_in_session_id);
      return next
        ? { ...env, kind: 'continued', continuedInSessionId: next }
        : { ...env, kind: 'other', type: 'continued-in' };
    }
    default:
      return { ...env, kind: 'other', type: str(raw.type) };
  }
}
