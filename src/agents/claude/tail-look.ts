/**
 * What a quiet PostToolUse (core/policy/quiet-window.ts) needs from the transcript bytes appended since
 * the last full look: the newest response's context, and whether anything happened there that
 * only a full look may judge. Reads no more than it must and folds nothing.
 * @module
 */
import type { TailLook } from '../agent.ts';
import { getContextTokens, readEntry } from './entry.ts';
import { readTail } from '../../transcript/log-tail.ts';

/**
 * JSON keys and values that only appear when something happened. Inside a string value the
 * quotes would be escaped (`\"is_error\":true`), so message text cannot spell them; the plain
 * error text can, which only costs a full look.
 */
const EVENTFUL = [
  '"compact_boundary"',
  '"microcompact_boundary"',
  '"isCompactSummary":true',
  '"is_error":true',
  '"isApiErrorMessage":true',
  '"subtype":"api_error"',
  '"continued-in"',
  'Prompt is too long',
];

export function lookAtTail(text: string): TailLook {
  if (EVENTFUL.some((marker) => text.includes(marker))) {
    return { contextTokens: null, responses: 0, toolCalls: 0, eventful: true };
  }
  let contextTokens: number | null = null;
  // A response is streamed as several lines with the same message: counted once.
  const responses = new Set<string>();
  const toolCalls = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"usage"') || !line.includes('"assistant"')) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue; // the line Claude Code is still writing
    }
    const entry = readEntry(raw);
    if (entry.kind !== 'assistant' || entry.sidechain || entry.synthetic || !entry.usage) continue;
    for (const use of entry.toolUses) toolCalls.add(use.id);
    const tokens = getContextTokens(entry.usage);
    if (tokens === 0) continue;
    contextTokens = tokens;
    responses.add(entry.key);
  }
  return { contextTokens, responses: responses.size, toolCalls: toolCalls.size, eventful: false };
}

/** The adapter's `log.tail`: the bytes appended since `offset`, looked at. */
export function claudeTail(path: string, offset: number): TailLook | null {
  const tail = readTail(path, offset);
  return tail === null ? null : lookAtTail(tail);
}
