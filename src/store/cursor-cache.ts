/**
 * Per-transcript cursors (byte offset + folded state) cached under SHIM_HOME, so the next
 * process folds only what was appended. A cursor is derived data: losing it costs one full
 * re-read, and concurrent writers are harmless (each file is a complete, consistent cursor).
 * @module
 */
import { join, resolve } from 'node:path';
import { SESSION_STATE_VERSION } from '../core/session.ts';
import type { TranscriptCursor } from '../transcript/reader.ts';
import { ensureDir } from './home.ts';
import { readJsonFile, writeJsonFileAtomic } from './json-file.ts';

/** Two FNV-1a variants → 16 hex chars; node:crypto would add ~4 ms to every process start. */
function hashPath(path: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ path.length;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

function getCursorPath(home: string, transcriptPath: string): string {
  const key = hashPath(resolve(transcriptPath));
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
