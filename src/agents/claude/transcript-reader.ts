/**
 * Claude Code's transcripts through the shared incremental reader (transcript/reader.ts): its
 * entry shapes (entry.ts) folded by fold.ts.
 * @module
 */
import type { SessionState } from '../../core/session.ts';
import {
  isCompressed,
  readCompressedLog,
  readLog,
  type LogFormat,
  type ReadOptions,
  type ReadResult,
  type TranscriptCursor,
} from '../../transcript/reader.ts';
import { readEntry, type TranscriptEntry } from './entry.ts';
import { finalizeResponse, foldEntry } from './fold.ts';

export { isCompressed };
export type TranscriptReadOptions = ReadOptions<TranscriptEntry>;

export const CLAUDE_LOG: LogFormat<TranscriptEntry> = {
  agent: 'claude',
  readEntry,
  foldEntry,
  finalize: finalizeResponse,
};

/** Reads the bytes appended since `cursor` (all of them without one) and folds them. */
export function readTranscript(
  path: string,
  cursor: TranscriptCursor | null,
  options: TranscriptReadOptions = {},
): ReadResult {
  return readLog(path, cursor, CLAUDE_LOG, options);
}

/** Reads a whole gzip-compressed transcript (an archived session); no cursor. */
export function readCompressedTranscript(
  path: string,
  options: TranscriptReadOptions = {},
): Promise<SessionState> {
  return readCompressedLog(path, CLAUDE_LOG, options);
}
