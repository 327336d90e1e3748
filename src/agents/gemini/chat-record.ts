/**
 * Lenient reading of one Gemini CLI chat record (a line of `~/.gemini/tmp/<slug>/chats/*.jsonl`,
 * or one message of a legacy `.json` chat) into the few shapes shim folds. Facts and sources:
 * docs/agents.md, "Gemini CLI".
 *
 * Record kinds, as the CLI's own loader tells them apart: a `$rewindTo` string drops that message
 * and every later one; an `id` string upserts a message (the last write of an id wins); a `$set`
 * object merges metadata (`messages` in it replaces the whole list: at start-up, on resume, after
 * a compression); `sessionId` + `projectHash` is the header. Anything else is skipped.
 * @module
 */

type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

export function parseTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

export type GeminiTokens = { input: number; output: number; cached: number; thoughts: number };

export type GeminiToolCall = {
  id: string;
  name: string;
  args: unknown;
  /** success | error | cancelled once it ran; null while it waits. */
  status: string | null;
  /** What the tool returned (the functionResponse's output or error), as text. */
  resultText: string;
};

export type GeminiMessage = {
  kind: 'message';
  id: string;
  type: string;
  at: number | null;
  /** The text parts joined (prompts, replies, notices). */
  text: string;
  /** A user message holding only tool results (functionResponse parts). */
  onlyToolResults: boolean;
  tokens: GeminiTokens | null;
  model: string | null;
  toolCalls: GeminiToolCall[];
  chars: number;
};

export type GeminiRecord =
  | { kind: 'header'; sessionId: string; at: number | null }
  | GeminiMessage
  | { kind: 'set'; lastUpdated: number | null; messages: GeminiMessage[] | null; chars: number }
  | { kind: 'rewind'; id: string }
  | { kind: 'other' };

function partsText(content: unknown): { text: string; onlyToolResults: boolean } {
  if (typeof content === 'string') return { text: content, onlyToolResults: false };
  if (!Array.isArray(content)) return { text: '', onlyToolResults: false };
  const texts: string[] = [];
  let results = 0;
  for (const part of content) {
    if (!isObj(part)) continue;
    if (typeof part.text === 'string') texts.push(part.text);
    else if (part.functionResponse !== undefined) results++;
  }
  return { text: texts.join('\n'), onlyToolResults: results > 0 && texts.length === 0 };
}

function readTokens(value: unknown): GeminiTokens | null {
  if (!isObj(value)) return null;
  return {
    input: num(value.input),
    output: num(value.output),
    cached: num(value.cached),
    thoughts: num(value.thoughts),
  };
}

/** The output (or error) of a tool call's recorded functionResponse parts. */
function readResultText(result: unknown): string {
  if (!Array.isArray(result)) return typeof result === 'string' ? result : '';
  const out: string[] = [];
  for (const part of result) {
    if (!isObj(part)) continue;
    const response = isObj(part.functionResponse) ? part.functionResponse.response : undefined;
    if (isObj(response)) {
      const value = response.output ?? response.error ?? response.content;
      out.push(typeof value === 'string' ? value : JSON.stringify(value ?? ''));
    } else if (typeof part.text === 'string') out.push(part.text);
  }
  return out.join('\n');
}

function readToolCalls(value: unknown): GeminiToolCall[] {
  if (!Array.isArray(value)) return [];
  const calls: GeminiToolCall[] = [];
  for (const raw of value) {
    if (!isObj(raw)) continue;
    const id = str(raw.id);
    const name = str(raw.name);
    if (!id || !name) continue;
    const status = str(raw.status);
    calls.push({
      id,
      name,
      args: raw.args,
      status: status === 'success' || status === 'error' || status === 'cancelled' ? status : null,
      resultText: readResultText(raw.result),
    });
  }
  return calls;
}

export function readMessage(raw: Obj, chars: number): GeminiMessage | null {
  const id = str(raw.id);
  if (!id) return null;
  const { text, onlyToolResults } = partsText(raw.content);
  return {
    kind: 'message',
    id,
    type: str(raw.type) ?? 'unknown',
    at: parseTime(raw.timestamp),
    text,
    onlyToolResults,
    tokens: readTokens(raw.tokens),
    model: str(raw.model),
    toolCalls: readToolCalls(raw.toolCalls),
    chars,
  };
}

/** One parsed JSON line → the record it is; `chars` is the line's length (for estimates). */
export function readRecord(value: unknown, chars: number): GeminiRecord {
  if (!isObj(value)) return { kind: 'other' };
  if (typeof value.$rewindTo === 'string') return { kind: 'rewind', id: value.$rewindTo };
  if (typeof value.id === 'string') return readMessage(value, chars) ?? { kind: 'other' };
  if (isObj(value.$set)) {
    const set = value.$set;
    const messages = Array.isArray(set.messages)
      ? set.messages.flatMap((m) => (isObj(m) ? (readMessage(m, 0) ?? []) : []))
      : null;
    return { kind: 'set', lastUpdated: parseTime(set.lastUpdated), messages, chars };
  }
  if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string')
    return { kind: 'header', sessionId: value.sessionId, at: parseTime(value.startTime) };
  return { kind: 'other' };
}

/** Is this parsed first line the header of a Gemini chat (JSONL) or a whole legacy chat? */
export function isGeminiChatHead(value: unknown): boolean {
  return (
    isObj(value) && typeof value.sessionId === 'string' && typeof value.projectHash === 'string'
  );
}
