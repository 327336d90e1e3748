/**
 * Where a loop run keeps its files (`SHIM_HOME/loops/<run>/`) and how they are written so a
 * kill -9 leaves them whole: durable writes (fsync of the file and its directory), and the
 * compacted log restored before a run is written to again.
 * @module
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AppError } from '../core/errors.ts';
import { ensureDir } from './home.ts';
import { assertNotSymlink } from './safe-file.ts';

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

export function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not every platform can fsync a directory
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Writes `data` to `path` through a temp file, fsynced, renamed into place. */
export function writeFileDurably(path: string, data: Uint8Array): void {
  const temp = `${path}.${process.pid}.tmp`;
  assertNotSymlink(path);
  // Exclusive create: a link planted as the temp file is not followed.
  try {
    unlinkSync(temp);
  } catch {
    // none left over
  }
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeAll(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

export function writeAll(fd: number, data: Uint8Array): void {
  let written = 0;
  while (written < data.length) written += writeSync(fd, data, written);
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
