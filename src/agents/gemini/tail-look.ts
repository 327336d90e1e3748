/**
 * What a quiet AfterTool (core/policy/quiet-window.ts) needs from the records Gemini CLI appended
 * to its chat since the last full look: the newest response's context, the calls it made, and
 * whether anything happened there that only a full look may judge. Reads no more than it must
 * and folds nothing (the chat's shapes: docs/agents.md, "The chat format"). A chat written as one
 * document (`.json`, ≤ 0.38) is not appended to: its tail is never looked at.
 * @module
 */
import type { TailLook } from '../agent.ts';
import { readTail } from '../../transcript/log-tail.ts';

/**
 * Keys and values that only appear when something happened: the history replaced (a compression,
 * a resume: `$set.messages`), a rewind, an error or notice record, a call that failed or was
 * cancelled. Inside a string value the quotes would be escaped, so a message's text cannot spell
 * them; a command's output reading `Exit Code: 1` (chat-fold-tools.ts) only costs a full look.
 */
const EVENTFUL = [
  '"messages":',
  '"$rewindTo"',
  '"type":"error"',
  '"type":"info"',
  '"type":"warning"',
  '"status":"error"',
  '"status":"cancelled"',
];
const FAILED = /Exit Code:\s*-?[1-9]/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A context that falls below half of the response before (from 20,000 tokens) is a compression
 * where nothing else marks it (chat-fold.ts, older builds).
 */
const fell = (before: number, now: number) => before >= 20_000 && now < before / 2;

export function lookAtChatTail(text: string): TailLook {
  const eventful = { contextTokens: null, responses: 0, toolCalls: 0, eventful: true };
  if (EVENTFUL.some((marker) => text.includes(marker)) || FAILED.test(text)) return eventful;
  let contextTokens: number | null = null;
  const responses = new Set<string>();
  const toolCalls = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"type":"gemini"')) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue; // the line Gemini is still writing
    }
    if (!isObj(raw) || raw.type !== 'gemini' || typeof raw.id !== 'string') continue;
    if (Array.isArray(raw.toolCalls))
      for (const call of raw.toolCalls)
        if (isObj(call) && typeof call.id === 'string') toolCalls.add(call.id);
    const input = isObj(raw.tokens) ? raw.tokens.input : null;
    if (typeof input !== 'number' || input <= 0) continue;
    if (contextTokens !== null && fell(contextTokens, input)) return eventful;
    contextTokens = input;
    responses.add(raw.id);
  }
  return { contextTokens, responses: responses.size, toolCalls: toolCalls.size, eventful: false };
}

/** The agent's `log.tail`: the chat's bytes appended since `offset`, looked at (JSONL only). */
export function geminiTail(path: string, offset: number): TailLook | null {
  if (!path.endsWith('.jsonl')) return null;
  const tail = readTail(path, offset);
  return tail === null ? null : lookAtChatTail(tail);
}
