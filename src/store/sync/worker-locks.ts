/**
 * The sync worker's two locks under SHIM_HOME, each a file naming its holder's pid (0600, no link
 * followed): `sync-worker.lock`, held while a worker sends (one pass at a time), and
 * `sync-waiter.lock`, held while a worker waits for the next retry — one waiting worker per
 * SHIM_HOME, however many hooks started one. A dead holder's lock is taken over.
 * @module
 */
import { closeSync, constants, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export type WorkerLock = 'send' | 'wait';

const FILES: Record<WorkerLock, string> = { send: 'sync-worker.lock', wait: 'sync-waiter.lock' };

export const workerLockPath = (home: string, lock: WorkerLock) => join(home, FILES[lock]);

/** The pid holding `lock`, when a live process holds it. */
export function lockHolder(
  home: string,
  lock: WorkerLock,
  isAlive: (pid: number) => boolean,
): number | null {
  return lockFileHolder(workerLockPath(home, lock), isAlive);
}

/** The pid a lock file names, when a live process holds it (any lock file of this shape). */
export function lockFileHolder(path: string, isAlive: (pid: number) => boolean): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim() || 0);
    return pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Takes `lock` for this process; the release, or null when a live process holds it. */
export function takeWorkerLock(
  home: string,
  lock: WorkerLock,
  isAlive: (pid: number) => boolean,
): (() => void) | null {
  return takeLockFile(workerLockPath(home, lock), isAlive);
}

/** Takes the lock file at `path` for this process (a dead holder's is taken over). */
export function takeLockFile(path: string, isAlive: (pid: number) => boolean): (() => void) | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        // Only our own: a lock taken over meanwhile is not removed.
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid))
            rmSync(path, { force: true });
        } catch {
          // gone already
        }
      };
    } catch {
      if (lockFileHolder(path, isAlive) !== null) return null;
      rmSync(path, { force: true });
    }
  }
  return null;
}
