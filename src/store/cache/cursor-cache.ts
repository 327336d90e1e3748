/**
 * Per-transcript cursors (byte offset + folded state) cached under SHIM_HOME, so the next
 * process folds only what was appended. A cursor is derived data: losing it costs one full
 * re-read, and concurrent writers are harmless (each file is a complete, consistent cursor).
 * @module
 */
import { constants, copyFileSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fnvHash } from '../../core/fnv-hash.ts';
import { SESSION_STATE_VERSION } from '../../core/session.ts';
import type { TranscriptCursor } from '../../transcript/reader.ts';
import { ensureDir } from '../home/home.ts';
import { dropHeldWrite, readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

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

/**
 * Copies the transcript's cursor to `dest` (a new file: an existing one or a link there is
 * refused); false when there is no cursor to copy. A pending checkpoint keeps the copy, so that
 * it folds from where the hook's session stood, whatever later calls do to the cache.
 */
export function copyCursor(home: string, transcriptPath: string, dest: string): boolean {
  try {
    copyFileSync(getCursorPath(home, transcriptPath), dest, constants.COPYFILE_EXCL);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** A cursor copied by {@link copyCursor}, or null when it is missing or not a cursor. */
export function loadCursorCopy(path: string): TranscriptCursor | null {
  const value = readJsonFile(path);
  return isCursor(value) ? value : null;
}

/** Removes the transcript's cursor (`shim forget`); true when there was one. */
export function forgetCursor(home: string, transcriptPath: string): boolean {
  dropHeldWrite(getCursorPath(home, transcriptPath));
  try {
    unlinkSync(getCursorPath(home, transcriptPath));
    return true;
  } catch {
    return false;
  }
}
