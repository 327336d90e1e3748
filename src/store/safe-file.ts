/**
 * Writing files under SHIM_HOME without being led elsewhere. A symbolic link planted where shim
 * writes (a handoff, the log, a cache file, a directory) would make shim overwrite or append to
 * its target — anything the user can write. Every write here refuses links: new files are made
 * with exclusive create (which does not follow a link) and moved into place by rename, appends
 * open with O_NOFOLLOW, and directories below SHIM_HOME must be real directories.
 * @module
 */
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { AppError } from '../core/errors.ts';

function unsafeLink(path: string): AppError {
  return new AppError(
    'UNSAFE_PATH',
    `refusing to write through the symbolic link ${path}`,
    'shim writes only real files under SHIM_HOME: remove the link (it was not made by shim)',
  );
}

/** True when `path` exists and is a symbolic link. */
export function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Throws when `path` is a symbolic link. */
export function assertNotSymlink(path: string): void {
  if (isSymlink(path)) throw unsafeLink(path);
}

/**
 * Creates `home/<parts…>` (owner-only) and returns it. SHIM_HOME itself may be a link (a user's
 * choice); every directory below it must be a real one.
 */
export function ensureSafeDir(home: string, ...parts: string[]): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  let dir = home;
  for (const part of parts) {
    dir = join(dir, part);
    if (isSymlink(dir)) throw unsafeLink(dir);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return dir;
}

/**
 * Writes `data` to `path` atomically (a reader sees the old file or the new one) and never
 * through a link: a temporary file made with exclusive create, then renamed over `path`.
 */
export function writeFileSafely(path: string, data: string, mode = 0o600): void {
  assertNotSymlink(path);
  const temp = `${path}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  let fd: number | null = null;
  try {
    fd = openSync(temp, 'wx', mode);
    writeSync(fd, data);
    closeSync(fd);
    fd = null;
    // A link planted between the check above and now is replaced, not followed.
    renameSync(temp, path);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // nothing to clean up
    }
    throw error;
  }
}

/** Appends `data` to `path`, creating it owner-only; a link there is refused (ELOOP). */
export function appendFileSafely(path: string, data: string, mode = 0o600): void {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      mode,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw unsafeLink(path);
    throw error;
  }
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/** Symbolic links among SHIM_HOME's own files and directories (for `shim doctor`). */
export function findPlantedLinks(home: string, paths: readonly string[]): string[] {
  return paths
    .map((p) => join(home, p))
    .filter((p) => isSymlink(p) && !relative(home, p).startsWith(`..${sep}`));
}
