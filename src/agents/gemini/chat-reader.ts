/**
 * Reading a Gemini CLI chat into the session model: the first read folds the whole file, later
 * reads fold only the appended records (the cursor keeps the byte offset, the folded state and
 * what of the newest messages is folded). A `$rewindTo` among the new records makes the read
 * start over: the whole file is folded again without the records the rewind dropped.
 * Gzipped chats and legacy `.json` chats (one document, ≤ 0.38) are read whole.
 * @module
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { AppError } from '../../core/errors.ts';
import {
  createSessionState,
  SESSION_STATE_VERSION,
  type SessionState,
} from '../../core/session.ts';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter } from '../../transcript/line-splitter.ts';
import { parseLine } from '../../transcript/parse-line.ts';
import type { FileIdentity, TranscriptCursor } from '../../transcript/reader.ts';
import { openLogFile, readLogFile } from '../../transcript/open-log.ts';
import {
  createGeminiFoldState,
  finalizeGeminiResponse,
  foldGeminiRecord,
  type GeminiFoldListener,
  type GeminiFoldState,
} from './chat-fold.ts';
import { isObj, readMessage, readRecord, type GeminiRecord } from './chat-record.ts';

const HEAD_BYTES = 256;

export type GeminiCursor = TranscriptCursor & { gemini: GeminiFoldState };

export type GeminiReadOptions = {
  listener?: GeminiFoldListener;
  /** Complete the newest response at the end (one-shot reads of finished chats). */
  finalize?: boolean;
  /** Fold only lines 1…untilLine. */
  untilLine?: number;
  /** Called after each record is folded, with the state as it is then (the replay's view). */
  onRecord?: (
    record: GeminiRecord & { at?: number | null },
    line: number,
    state: SessionState,
  ) => void;
};

export type GeminiReadResult = { cursor: GeminiCursor; bytesRead: number; restarted: boolean };

type Line = { line: number; record: GeminiRecord };

export function isGeminiCursor(cursor: TranscriptCursor | null): cursor is GeminiCursor {
  return cursor !== null && isObj((cursor as Partial<GeminiCursor>).gemini);
}

/** The shared refusals of open-log.ts, with where Gemini keeps its chats when one is missing. */
function withChatHint<T>(path: string, open: (path: string) => T): T {
  try {
    return open(path);
  } catch (error) {
    if (error instanceof AppError && error.code === 'TRANSCRIPT_NOT_FOUND')
      throw new AppError(
        'TRANSCRIPT_NOT_FOUND',
        `Gemini chat not found: ${path}`,
        'check the path; chats live in ~/.gemini/tmp/<project>/chats/',
      );
    throw error;
  }
}

/** Parses complete lines; counts what could not be read in the state's parse stats. */
function collectLines(
  state: SessionState,
  bytes: Buffer,
  start: { offset: number; line: number },
  acceptTail: boolean,
): { lines: Line[]; offset: number; line: number } {
  const lines: Line[] = [];
  const splitter = new LineSplitter(
    (text, line) => {
      state.parse.lines = line;
      const parsed = parseLine(text);
      if (parsed.hadNul) state.parse.nulLines++;
      if (!parsed.ok) {
        if (!parsed.blank) {
          state.parse.badLines++;
          state.parse.firstBadLine ??= line;
        }
        return;
      }
      lines.push({ line, record: readRecord(parsed.value, text.length) });
    },
    { offset: start.offset, line: start.line, skipNewline: false },
    DEFAULT_MAX_LINE_BYTES,
  );
  splitter.push(bytes);
  // The CLI appends whole lines; a tail without its newline is taken only when it is whole JSON.
  const tail = splitter.remainder();
  if (tail && acceptTail) {
    const text = tail.toString('utf8');
    const parsed = parseLine(text);
    if (parsed.ok && !parsed.recovered) splitter.acceptRemainder(text);
  }
  state.parse.oversizedLines += splitter.oversizedLines.length;
  return { lines, offset: splitter.committedOffset, line: splitter.line };
}

/**
 * The lines a later `$rewindTo` dropped, replaying the CLI's own rule: the rewound message and
 * every message after it leave the history (an unknown id clears it all).
 */
function findRewoundLines(lines: Line[]): Set<number> {
  const dropped = new Set<number>();
  let order: string[] = [];
  const writes = new Map<string, number[]>();
  for (const { line, record } of lines) {
    if (record.kind === 'message') {
      if (!writes.has(record.id)) {
        writes.set(record.id, []);
        order.push(record.id);
      }
      writes.get(record.id)!.push(line);
    } else if (record.kind === 'set' && record.messages) {
      order = record.messages.map((m) => m.id);
    } else if (record.kind === 'rewind') {
      dropped.add(line);
      const at = order.indexOf(record.id);
      const gone = at >= 0 ? order.splice(at) : order.splice(0);
      for (const id of gone) {
        for (const l of writes.get(id) ?? []) dropped.add(l);
        writes.delete(id);
      }
    }
  }
  return dropped;
}

function foldLines(
  state: SessionState,
  gemini: GeminiFoldState,
  lines: Line[],
  options: GeminiReadOptions,
  skip: Set<number> | null,
): void {
  const until = options.untilLine ?? Infinity;
  for (const { line, record } of lines) {
    if (line > until) break;
    if (skip?.has(line)) continue;
    foldGeminiRecord(state, gemini, record, line, options.listener);
    options.onRecord?.(record, line, state);
  }
}

function identityOf(fd: number): FileIdentity {
  const stat = fstatSync(fd);
  const head = Buffer.alloc(HEAD_BYTES);
  const n = readSync(fd, head, 0, HEAD_BYTES, 0);
  return { dev: stat.dev, ino: stat.ino, head: head.subarray(0, n).toString('base64') };
}

function cursorMatches(cursor: GeminiCursor, identity: FileIdentity, size: number): boolean {
  if (!cursor.file || cursor.state.v !== SESSION_STATE_VERSION) return false;
  // Folded by another agent's reader (a log first read as the wrong agent's): read again.
  if (cursor.state.agent !== 'gemini') return false;
  if (cursor.file.dev !== identity.dev || cursor.file.ino !== identity.ino) return false;
  if (size < cursor.offset) return false;
  const a = Buffer.from(cursor.file.head, 'base64');
  const b = Buffer.from(identity.head, 'base64');
  const n = Math.min(a.length, b.length);
  return a.subarray(0, n).equals(b.subarray(0, n));
}

function readRange(fd: number, from: number, to: number): Buffer {
  const bytes = Buffer.alloc(Math.max(0, to - from));
  let done = 0;
  while (done < bytes.length) {
    const n = readSync(fd, bytes, done, bytes.length - done, from + done);
    if (n <= 0) break;
    done += n;
  }
  return bytes.subarray(0, done);
}

/** Folds a whole chat's bytes (JSONL, or a legacy one-document `.json`). */
function foldWhole(bytes: Buffer, options: GeminiReadOptions): GeminiCursor {
  const state = createSessionState('gemini');
  const gemini = createGeminiFoldState();
  const legacy = readLegacyChat(bytes);
  if (legacy) {
    foldLines(state, gemini, legacy, options, null);
    state.parse.lines = legacy.length;
    return {
      offset: bytes.length,
      line: legacy.length,
      skipNewline: false,
      file: null,
      state,
      gemini,
    };
  }
  const collected = collectLines(state, bytes, { offset: 0, line: 0 }, true);
  const rewound = collected.lines.some((l) => l.record.kind === 'rewind')
    ? findRewoundLines(collected.lines)
    : null;
  foldLines(state, gemini, collected.lines, options, rewound);
  return {
    offset: collected.offset,
    line: collected.line,
    skipNewline: false,
    file: null,
    state,
    gemini,
  };
}

/** A legacy chat: one JSON document `{sessionId, projectHash, messages: […]}`. */
function readLegacyChat(bytes: Buffer): Line[] | null {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (bytes[i] !== 0x7b) return null;
  // A JSONL chat does not parse as one document; a legacy chat does and has `messages`.
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (!isObj(doc) || !Array.isArray(doc.messages)) return null;
  const lines: Line[] = [{ line: 1, record: readRecord({ ...doc, messages: undefined }, 0) }];
  doc.messages.forEach((m, index) => {
    const message = isObj(m) ? readMessage(m, JSON.stringify(m).length) : null;
    if (message) lines.push({ line: index + 2, record: message });
  });
  return lines;
}

export function isGzip(path: string): boolean {
  return path.endsWith('.gz');
}

/**
 * Reads what was appended to the chat at `path` since `cursor` (all of it without one) and folds
 * it. Synchronous: hooks are short-lived processes with nothing else to do.
 */
export function readGeminiChat(
  path: string,
  cursor: TranscriptCursor | null,
  options: GeminiReadOptions = {},
): GeminiReadResult {
  if (isGzip(path)) {
    const bytes = withChatHint(path, readLogFile);
    let plain: Buffer;
    try {
      plain = gunzipSync(bytes);
    } catch (error) {
      throw new AppError(
        'TRANSCRIPT_UNREADABLE',
        `cannot decompress ${path}: ${(error as Error).message}`,
        'is it really gzip? Pass the .jsonl file instead',
      );
    }
    const whole = foldWhole(plain, options);
    if (options.finalize) finalizeGeminiResponse(whole.state, options.listener);
    return { cursor: whole, bytesRead: bytes.length, restarted: false };
  }
  const fd = withChatHint(path, openLogFile);
  try {
    const size = fstatSync(fd).size;
    const identity = identityOf(fd);
    const previous = isGeminiCursor(cursor) ? cursor : null;
    if (previous && cursorMatches(previous, identity, size) && options.untilLine === undefined) {
      const { state, gemini } = previous;
      const bytes = readRange(fd, previous.offset, size);
      const collected = collectLines(state, bytes, previous, true);
      if (!collected.lines.some((l) => l.record.kind === 'rewind')) {
        foldLines(state, gemini, collected.lines, options, null);
        if (options.finalize) finalizeGeminiResponse(state, options.listener);
        return {
          cursor: { ...previous, offset: collected.offset, line: collected.line, file: identity },
          bytesRead: bytes.length,
          restarted: false,
        };
      }
      // A rewind: what was folded may include dropped messages. Fold the file afresh.
    }
    const whole = foldWhole(readRange(fd, 0, size), options);
    if (options.finalize) finalizeGeminiResponse(whole.state, options.listener);
    return {
      cursor: { ...whole, file: identity },
      bytesRead: size,
      restarted: cursor !== null,
    };
  } finally {
    closeSync(fd);
  }
}
