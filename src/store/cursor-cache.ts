/**
 * Per-transcript cursors (byte offset + folded state) cached under SHIM_HOME, so the next
 * process folds only what was appended. A cursor is derived data: losing it costs one full
 * re-read, and concurrent writers are harmless (each file is a complete, consistent cursor).
 * @module
 */
import { unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fnvHash } from '../core/fnv-hash.ts';
import { SESSION_STATE_VERSION } from '../core/session.ts';
import type { TranscriptCursor } from '../transcript/reader.ts';
import { ensureDir } from './home.ts';
import { readJsonFile, writeJsonFileAtomic } from './json-file.ts';

function getCursorPath(home: string, transcriptPath: string): string {
  const key = fnvHash(resolve(transcriptPath));
  return join(home, 'cache', 'cursors', `${key}.json`);
}

function isCursor(value: unknown): value is TranscriptCursor {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Partial<TranscriptCursor>;
  return (
    typeof c.offset === 'number' &&
    typeof c.line === 'number' &&
    typeof c.state === 'object' &&
    c.state !== null &&
    c.state.v === SESSION_STATE_VERSION
  );
}

export function loadCursor(home: string, transcriptPath: string): TranscriptCursor | null {
  const value = readJsonFile(getCursorPath(home, transcriptPath));
  return isCursor(value) ? value : null;
}

export function saveCursor(home: string, transcriptPath: string, cursor: TranscriptCursor): void {
  ensureDir(home, 'cache', 'cursors');
  writeJsonFileAtomic(getCursorPath(home, transcriptPath), cursor);
}

/** Removes the transcript's cursor (`shim forget`); true when there was one. */
export function forgetCursor(home: string, transcriptPath: string): boolean {
  try {
    unlinkSync(getCursorPath(home, transcriptPath));
    return true;
  } catch {
    return false;
  }
}
