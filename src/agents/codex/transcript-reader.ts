/**
 * Codex rollouts through the shared incremental reader (transcript/reader.ts): a live
 * `rollout-….jsonl` is read from its byte cursor like a Claude Code transcript; an archived
 * `.jsonl.zst` (Codex compresses cold threads, docs/agents.md) or a gzipped copy is read whole.
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { SessionState } from '../../core/session.ts';
import {
  foldLogBytes,
  readCompressedLog,
  readLog,
  type LogFormat,
  type ReadOptions,
  type ReadResult,
  type TranscriptCursor,
} from '../../transcript/reader.ts';
import { finalizeResponse } from '../../transcript/fold-parts.ts';
import { readLogFile } from '../../transcript/open-log.ts';
import { foldCodexLine, readCodexLine, type CodexLine } from './fold.ts';

export type CodexReadOptions = ReadOptions<CodexLine>;

export const CODEX_LOG: LogFormat<CodexLine> = {
  agent: 'codex',
  readEntry: readCodexLine,
  foldEntry: foldCodexLine,
  finalize: finalizeResponse,
};

export function isCompressedRollout(path: string): boolean {
  return path.endsWith('.gz') || path.endsWith('.zst');
}

export function readRollout(
  path: string,
  cursor: TranscriptCursor | null,
  options: CodexReadOptions = {},
): ReadResult {
  return readLog(path, cursor, CODEX_LOG, options);
}

/** Decompresses a zstd archive; a file that is not one is a one-line AppError. */
async function readZstd(path: string): Promise<Uint8Array> {
  const bytes = readLogFile(path);
  const { decompress } = await import('fzstd'); // only archived rollouts need it
  try {
    return decompress(bytes);
  } catch (error) {
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `cannot decompress ${path}: ${(error as Error).message || 'not valid zstd data'}`,
      'the archive is damaged; if Codex kept the plain .jsonl beside it, pass that instead',
    );
  }
}

export async function readCompressedRollout(
  path: string,
  options: CodexReadOptions = {},
): Promise<SessionState> {
  if (path.endsWith('.zst')) {
    return foldLogBytes(await readZstd(path), CODEX_LOG, options);
  }
  return readCompressedLog(path, CODEX_LOG, options);
}
