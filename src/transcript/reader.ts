/**
 * Incremental session-log reading, for every agent: the first read folds the whole file; later
 * reads resume from a cursor (byte offset, line number and folded state) and fold only the
 * appended bytes. What a line means is the agent's `LogFormat` (src/agents/<agent>/).
 * @module
 */
import { closeSync, createReadStream, fstatSync, readSync } from 'node:fs';
import { AppError } from '../core/errors.ts';
import type { AgentId } from '../core/agent-id.ts';
import { createSessionState, SESSION_STATE_VERSION, type SessionState } from '../core/session.ts';
import type { CompactionRecord, ResponseRecord } from '../core/session.ts';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, type LineHandler } from './line-splitter.ts';
import { parseLine } from './parse-line.ts';
import { describeOpenError, openLogFile } from './open-log.ts';

const CHUNK_BYTES = 1024 * 1024;
const HEAD_BYTES = 256;

/** Identifies the file a cursor belongs to, so a replaced or truncated file is read afresh. */
export type FileIdentity = { dev: number; ino: number; head: string };

export type TranscriptCursor = {
  offset: number;
  line: number;
  skipNewline: boolean;
  file: FileIdentity | null;
  state: SessionState;
};

/** Called when a response is complete (the next one began, a compaction, or the end). */
export type FoldListener = {
  onResponse?: (response: ResponseRecord) => void;
  onCompaction?: (compaction: CompactionRecord) => void;
  /** The agent's own summary of the compaction before it, where its log holds it. */
  onCompactSummary?: (summary: string, line: number) => void;
};

/** One agent's log lines: how a parsed line becomes an entry, and how entries fold. */
export type LogFormat<E> = {
  /** The agent whose log this format reads: every state it folds is that agent's. */
  agent: AgentId;
  readEntry: (value: unknown) => E;
  foldEntry: (state: SessionState, entry: E, line: number, listener?: FoldListener) => void;
  /** Completes the response still open at the end of what was read. */
  finalize: (state: SessionState, listener?: FoldListener) => void;
};

export type ReadOptions<E = unknown> = {
  listener?: FoldListener;
  /** Called after each entry is folded (the replay's line-by-line view). */
  onEntry?: (entry: E, line: number, state: SessionState) => void;
  maxLineBytes?: number;
  /** Complete the streaming response at the end (one-shot reads of finished files). */
  finalize?: boolean;
  /** Fold only lines 1…untilLine (the state as it was at that line). */
  untilLine?: number;
  /**
   * Read no further than this byte offset (the file as it was when a hook saw it); a cursor past
   * it is not used.
   */
  untilByte?: number;
};

export type ReadResult = {
  cursor: TranscriptCursor;
  bytesRead: number;
  /** True when the cursor did not match the file and the read started over. */
  restarted: boolean;
};

export function createCursor(agent: AgentId): TranscriptCursor {
  return { offset: 0, line: 0, skipNewline: false, file: null, state: createSessionState(agent) };
}

/** The per-line pipeline: parse (with recovery) → classify → fold. */
function createLineFolder<E>(
  state: SessionState,
  format: LogFormat<E>,
  options: ReadOptions<E>,
): LineHandler {
  const until = options.untilLine ?? Infinity;
  return (text, line) => {
    if (line > until) return;
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
    if (parsed.recovered) {
      state.parse.badLines++;
      state.parse.firstBadLine ??= line;
    }
    const entry = format.readEntry(parsed.value);
    format.foldEntry(state, entry, line, options.listener);
    options.onEntry?.(entry, line, state);
  };
}

function readHead(fd: number): string {
  const head = Buffer.alloc(HEAD_BYTES);
  const n = readSync(fd, head, 0, HEAD_BYTES, 0);
  return head.subarray(0, n).toString('base64');
}

function cursorMatches(
  cursor: TranscriptCursor,
  agent: AgentId,
  identity: FileIdentity,
  size: number,
): boolean {
  if (!cursor.file || cursor.state.v !== SESSION_STATE_VERSION) return false;
  // Folded by another agent's reader (a log first read as the wrong agent's): read again.
  if (cursor.state.agent !== agent) return false;
  if (cursor.file.dev !== identity.dev || cursor.file.ino !== identity.ino) return false;
  if (size < cursor.offset) return false;
  // The head grows until the file reaches HEAD_BYTES; compare what both have.
  const a = Buffer.from(cursor.file.head, 'base64');
  const b = Buffer.from(identity.head, 'base64');
  const n = Math.min(a.length, b.length);
  return a.subarray(0, n).equals(b.subarray(0, n));
}

/**
 * Offers the unterminated tail as a line if it is already a complete JSON entry. A tail that
 * only parses by recovery is a line still being written whose cut happens to close a nested
 * block (`…[{"type":"text","text":"hi"}`): it is left for the next read.
 */
function finishTail(splitter: LineSplitter): void {
  const tail = splitter.remainder();
  if (!tail) return;
  const text = tail.toString('utf8');
  const parsed = parseLine(text);
  if (parsed.ok && !parsed.recovered) splitter.acceptRemainder(text);
}

/**
 * Reads the bytes appended since `cursor` (all of them without one) and folds them.
 * Synchronous on purpose: hooks are short-lived processes with nothing else to do.
 */
export function readLog<E>(
  path: string,
  cursor: TranscriptCursor | null,
  format: LogFormat<E>,
  options: ReadOptions<E> = {},
): ReadResult {
  const fd = openLogFile(path);
  try {
    const stat = fstatSync(fd);
    const identity: FileIdentity = { dev: stat.dev, ino: stat.ino, head: readHead(fd) };
    const end = Math.min(stat.size, options.untilByte ?? Infinity);
    const matches =
      cursor !== null &&
      cursorMatches(cursor, format.agent, identity, stat.size) &&
      cursor.offset <= end;
    const base = matches ? cursor : createCursor(format.agent);
    const state = base.state;
    const splitter = new LineSplitter(
      createLineFolder(state, format, options),
      { offset: base.offset, line: base.line, skipNewline: base.skipNewline },
      options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    );
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, end - base.offset)));
    let position = base.offset;
    while (position < end) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
      if (n <= 0) break;
      splitter.push(n === buffer.length ? buffer : buffer.subarray(0, n));
      position += n;
    }
    finishTail(splitter);
    state.parse.oversizedLines += splitter.oversizedLines.length;
    // The line handler never sees skipped (oversized) lines: count them here too.
    state.parse.lines = Math.min(splitter.line, options.untilLine ?? Infinity);
    if (options.finalize) format.finalize(state, options.listener);
    return {
      cursor: {
        offset: splitter.committedOffset,
        line: splitter.line,
        skipNewline: splitter.skipNewline,
        file: identity,
        state,
      },
      bytesRead: position - base.offset,
      restarted: cursor?.file != null && !matches,
    };
  } finally {
    closeSync(fd);
  }
}

/** Reads a whole gzip-compressed transcript (an archived session); no cursor. */
/** A gzipped transcript (fixtures, archives) is read whole; a live one incrementally. */
export function isCompressed(path: string): boolean {
  return path.endsWith('.gz');
}

export async function readCompressedLog<E>(
  path: string,
  format: LogFormat<E>,
  options: ReadOptions<E> = {},
): Promise<SessionState> {
  // Checked on the descriptor the stream then reads (a FIFO is never waited on).
  const fd = openLogFile(path);
  const state = createSessionState(format.agent);
  const splitter = new LineSplitter(
    createLineFolder(state, format, options),
    { offset: 0, line: 0, skipNewline: false },
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  );
  // pipe() does not forward the source's errors: without this, a file that cannot be opened
  // or read raises an unhandled 'error' event and takes the process down.
  let readError: unknown = null;
  const { createGunzip } = await import('node:zlib'); // only archived transcripts need it
  const gunzip = createGunzip();
  const source = createReadStream(path, { fd }).on('error', (error) => {
    readError = error;
    gunzip.destroy(error);
  });
  try {
    for await (const chunk of source.pipe(gunzip)) splitter.push(chunk as Buffer);
  } catch (error) {
    if (readError !== null) throw describeOpenError(path, readError);
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `cannot decompress ${path}: ${(error as Error).message}`,
      'is it really gzip? Pass the .jsonl file instead',
    );
  }
  finishTail(splitter);
  state.parse.oversizedLines += splitter.oversizedLines.length;
  // The line handler never sees skipped (oversized) lines: count them here too.
  state.parse.lines = Math.min(splitter.line, options.untilLine ?? Infinity);
  if (options.finalize) format.finalize(state, options.listener);
  return state;
}

/** Folds a whole log already in memory (a decompressed archive); no cursor. */
export function foldLogBytes<E>(
  bytes: Uint8Array,
  format: LogFormat<E>,
  options: ReadOptions<E> = {},
): SessionState {
  const state = createSessionState(format.agent);
  const splitter = new LineSplitter(
    createLineFolder(state, format, options),
    { offset: 0, line: 0, skipNewline: false },
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  );
  splitter.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  finishTail(splitter);
  state.parse.oversizedLines += splitter.oversizedLines.length;
  state.parse.lines = Math.min(splitter.line, options.untilLine ?? Infinity);
  if (options.finalize) format.finalize(state, options.listener);
  return state;
}
