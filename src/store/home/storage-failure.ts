/**
 * Why SHIM_HOME cannot be written, in the words a user acts on: the disk is full, the folder is
 * read-only, or it cannot be a folder at all (a part of its path is a file). SQLite and node:fs
 * report these many ways (ENOSPC, EDQUOT, SQLITE_FULL; EROFS, EACCES, EPERM, SQLITE_READONLY;
 * ENOTDIR); without this they read as "the store may be corrupt", which sends the user to move a
 * healthy database aside, or as nothing at all. Loaded by the hooks: no SQLite here.
 * @module
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { AppError } from '../../core/errors.ts';

export type StorageFailure = 'disk-full' | 'read-only' | 'not-a-folder';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const READ_ONLY_CODES = new Set(['EROFS', 'EACCES', 'EPERM']);
const FULL_TEXT = /database or disk is full|no space left on device|ENOSPC|EDQUOT|SQLITE_FULL/i;
const READ_ONLY_TEXT =
  /readonly database|read-only file system|EROFS|EACCES|permission denied|SQLITE_READONLY/i;
const NOT_A_FOLDER_TEXT = /ENOTDIR|not a directory/i;

/**
 * The kind of storage failure `error` (or anything in its cause chain) is; null for others. With
 * `home`, a permission error about a file elsewhere (a transcript, a plan) is not one.
 */
export function storageFailureOf(error: unknown, home?: string): StorageFailure | null {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      // Already said in shim's words (asStorageError), by whichever copy of AppError made it.
      if (code === 'STORE_FULL') return 'disk-full';
      if (code === 'STORE_READ_ONLY') return 'read-only';
      if (FULL_CODES.has(code)) return 'disk-full';
      if (code === 'ENOTDIR') {
        const path = (e as { path?: unknown }).path;
        if (home === undefined || typeof path !== 'string' || path.startsWith(home))
          return 'not-a-folder';
        return null;
      }
      if (code.startsWith('SQLITE_READONLY')) return 'read-only';
      if (READ_ONLY_CODES.has(code)) {
        const path = (e as { path?: unknown }).path;
        if (home === undefined || typeof path !== 'string' || path.startsWith(home))
          return 'read-only';
        return null;
      }
    }
    const message = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
    if (FULL_TEXT.test(message)) return 'disk-full';
    if (READ_ONLY_TEXT.test(message)) return 'read-only';
    if (NOT_A_FOLDER_TEXT.test(message) && (home === undefined || message.includes(home)))
      return 'not-a-folder';
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

const OPEN_OR_IO = /unable to open database file|SQLITE_CANTOPEN|disk I\/O error|SQLITE_IOERR/i;

/** What happened and how to fix it, for one line of output. */
export function describeStorageFailure(
  kind: StorageFailure,
  home: string,
): { message: string; hint: string } {
  switch (kind) {
    case 'disk-full':
      return {
        message: `the disk holding ${home} is full: shim cannot save checkpoints`,
        hint: `free some space there (or point SHIM_HOME at another disk); \`shim gc\` removes old checkpoints once it can write`,
      };
    case 'read-only':
      return {
        message: `${home} is read-only: shim cannot save checkpoints`,
        hint: `make it writable for this user (or point SHIM_HOME at a writable folder)`,
      };
    case 'not-a-folder':
      return {
        message: `${home} cannot be a folder (a part of its path is a file): shim cannot save checkpoints`,
        hint: `point SHIM_HOME at a folder you can write (default ~/.shim)`,
      };
  }
}

/** The few words the statusline has room for. */
export const STORAGE_LABELS: Record<StorageFailure, string> = {
  'disk-full': 'disk full',
  'read-only': 'SHIM_HOME read-only',
  'not-a-folder': 'SHIM_HOME not a folder',
};

/** The AppError for a storage failure (STORE_FULL / STORE_READ_ONLY), or null for other errors. */
export function asStorageError(error: unknown, home: string): AppError | null {
  if (
    error instanceof AppError &&
    (error.code === 'STORE_FULL' || error.code === 'STORE_READ_ONLY')
  )
    return error;
  // An AppError without a cause already says what is wrong in shim's words.
  if (error instanceof AppError && error.cause === undefined) return null;
  // SQLite says only "unable to open database file" or "disk I/O error" when it cannot create
  // its journal files: the folder itself tells why.
  const kind =
    storageFailureOf(error, home) ??
    (OPEN_OR_IO.test(String((error as Error)?.message ?? error)) ? probeStorage(home) : null);
  if (kind === null) return null;
  const { message, hint } = describeStorageFailure(kind, home);
  const code =
    kind === 'disk-full'
      ? 'STORE_FULL'
      : kind === 'read-only'
        ? 'STORE_READ_ONLY'
        : 'STORE_UNAVAILABLE';
  return new AppError(code, message, hint, {
    cause: error,
  });
}

/** Below this much free space a checkpoint (a few hundred KB at most with its WAL) may not fit. */
const LOW_SPACE_BYTES = 1024 * 1024;

/** Whether SHIM_HOME can take a write now: two system calls, no write. null when it can. */
export function probeStorage(home: string): StorageFailure | null {
  try {
    const fs = statfsSync(home);
    if (fs.bavail * fs.bsize < LOW_SPACE_BYTES) return 'disk-full';
  } catch {
    // no such folder yet (created on the first write), or no statfs here
  }
  try {
    accessSync(home, constants.W_OK);
  } catch (error) {
    return storageFailureOf(error);
  }
  return null;
}
