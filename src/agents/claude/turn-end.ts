/**
 * How the session's last turn ended, read from the end of its transcript: a usage or rate limit,
 * a prompt over the context limit, or neither. Claude Code writes a failed request as a
 * synthetic assistant entry (`isApiErrorMessage: true`, `error` e.g. `rate_limit`, the API's
 * status and message in its text). Reads the last bytes only; folds nothing.
 * @module
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { isLimitMessage } from '../../core/loop/usage-limit.ts';
import { openLogFile } from '../../transcript/open-log.ts';

export type TurnEnd =
  | { kind: 'usage_limit'; text: string; status: number | null; uuid: string | null }
  | { kind: 'prompt_too_long'; text: string; status: number | null; uuid: string | null };

const TAIL_BYTES = 256 * 1024;
const PROMPT_TOO_LONG = /prompt is too long|context (?:length|window) exceeded|input is too long/i;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function textOf(message: unknown): string {
  if (!isObj(message)) return '';
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (isObj(block) && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
}

/** The last `bytes` of the file as lines (the first, likely cut, dropped when not at 0). */
export function readTailLines(path: string, bytes = TAIL_BYTES): string[] {
  let fd: number;
  try {
    fd = openLogFile(path);
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    const read = readSync(fd, buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8', 0, read).split('\n');
    if (start > 0) lines.shift();
    return lines.filter((l) => l.trim() !== '');
  } finally {
    closeSync(fd);
  }
}

/** Classifies one transcript entry that ended a turn in an API error; null for anything else. */
export function classifyErrorEntry(raw: unknown): TurnEnd | null {
  if (!isObj(raw) || raw.type !== 'assistant' || raw.isSidechain === true) return null;
  if (raw.isApiErrorMessage !== true) return null;
  const text = textOf(raw.message);
  const status = typeof raw.apiErrorStatus === 'number' ? raw.apiErrorStatus : null;
  const uuid = typeof raw.uuid === 'string' ? raw.uuid : null;
  if (PROMPT_TOO_LONG.test(text)) return { kind: 'prompt_too_long', text, status, uuid };
  if (raw.error === 'rate_limit' || status === 429 || isLimitMessage(text))
    return { kind: 'usage_limit', text, status, uuid };
  return null;
}

/**
 * The error the session's last main-chain turn ended on, when it ended on a limit; null when the
 * last assistant entry is an ordinary response (the session went on after any error).
 */
export function readTurnEnd(path: string): TurnEnd | null {
  const lines = readTailLines(path);
  for (let i = lines.length - 1; i >= 0; i--) {
    let raw: unknown;
    try {
      raw = JSON.parse(lines[i]!);
    } catch {
      continue;
    }
    if (!isObj(raw) || raw.type !== 'assistant' || raw.isSidechain === true) continue;
    return classifyErrorEntry(raw);
  }
  return null;
}
