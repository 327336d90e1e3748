/**
 * Where a loop run keeps its files (`SHIM_HOME/loops/<run>/`) and how they are written so a
 * kill -9 leaves them whole: durable writes (safe-file.ts: fsync of the file and its directory), and the
 * compacted log restored before a run is written to again.
 * @module
 */
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AppError } from '../../core/errors.ts';
import { ensureDir } from '../home/home.ts';
import { fsyncDir, writeFileDurably } from '../home/safe-file.ts';

export const LOOPS_DIR = 'loops';
export const EVENTS_FILE = 'events.jsonl';
export const COMPRESSED_EVENTS_FILE = 'events.jsonl.gz';

export const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function checkRunId(runId: string): void {
  if (!RUN_ID.test(runId) || runId.length > 200) {
    throw new AppError(
      'USAGE',
      `"${runId}" is not a valid loop run id`,
      'run ids are letters, digits, ".", "_" and "-"',
    );
  }
}

/** `SHIM_HOME/loops/<run>`, without creating it. */
export function getRunDirPath(home: string, runId: string): string {
  checkRunId(runId);
  return join(home, LOOPS_DIR, runId);
}

/** `SHIM_HOME/loops/<run>`, created owner-only if needed. */
export function getRunDir(home: string, runId: string): string {
  checkRunId(runId);
  return ensureDir(home, LOOPS_DIR, runId);
}

export function getEventsPath(home: string, runId: string): string {
  return join(getRunDirPath(home, runId), EVENTS_FILE);
}

export function getCompressedEventsPath(home: string, runId: string): string {
  return join(getRunDirPath(home, runId), COMPRESSED_EVENTS_FILE);
}

/**
 * A compacted run opened for writing: events.jsonl.gz becomes events.jsonl again. When both
 * exist (compaction was interrupted before it removed the plain file), the plain file wins.
 */
export function restoreCompressed(dir: string): boolean {
  const plain = join(dir, EVENTS_FILE);
  const compressed = join(dir, COMPRESSED_EVENTS_FILE);
  if (!existsSync(compressed)) return false;
  if (existsSync(plain)) {
    unlinkSync(compressed);
    fsyncDir(dir);
    return false;
  }
  writeFileDurably(plain, gunzipSync(readFileSync(compressed)));
  fsyncDir(dir);
  unlinkSync(compressed);
  fsyncDir(dir);
  return true;
}
