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
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { AppError } from '../../core/errors.ts';

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
  makeHome(home);
  let dir = home;
  for (const part of parts) {
    dir = join(dir, part);
    // Looked at before any mkdir: on every hook call the directories exist, and a failed mkdir
    // (EEXIST) costs an exception each.
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) throw unsafeLink(dir);
    if (stat?.isDirectory()) continue;
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isSymlink(dir)) throw unsafeLink(dir);
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

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'it exists and is not a directory',
  ENOSPC: 'no space left on the device',
  ENOENT: 'a directory cannot be created there',
};

/**
 * Creates SHIM_HOME and its missing parents one level at a time (Node's recursive mkdir loops
 * forever under /proc), with a clear error when it cannot.
 */
function makeHome(home: string): void {
  const missing: string[] = [];
  for (let dir = home; ; dir = dirname(dir)) {
    let stat: ReturnType<typeof lstatSync> | undefined;
    try {
      stat = statSync(dir, { throwIfNoEntry: false });
    } catch {
      // unreadable: created (and failing with its reason) below
    }
    if (stat) {
      if (!stat.isDirectory()) throw homeError(home, dir, 'ENOTDIR');
      break;
    }
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      if (code === 'EEXIST' && statSync(dir).isDirectory()) continue;
      throw homeError(home, dir, code);
    }
  }
}

function homeError(home: string, at: string, code: string): AppError {
  return new AppError(
    'STORE_UNAVAILABLE',
    `cannot use ${home} as SHIM_HOME: ${at}: ${REASONS[code] ?? code}`,
    'set SHIM_HOME to a directory you can write (default ~/.shim)',
  );
}

/** Symbolic links among SHIM_HOME's own files and directories (for `shim doctor`). */
export function findPlantedLinks(home: string, paths: readonly string[]): string[] {
  return paths
    .map((p) => join(home, p))
    .filter((p) => isSymlink(p) && !relative(home, p).startsWith(`..${sep}`));
}

/** Syncs a directory's entries (a file renamed into it survives a power cut); best effort. */
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
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    // A write the disk refused leaves no half file behind (a killed writer's: its reader removes).
    rmSync(temp, { force: true });
    throw error;
  }
}

export function writeAll(fd: number, data: Uint8Array): void {
  let written = 0;
  while (written < data.length) written += writeSync(fd, data, written);
}
