/**
 * The lock of a session's command watch (app/checkpoint/running-command-watch.ts):
 * SHIM_HOME/cache/hooks/<session>.watch.lock naming the watching process's pid. One watch per
 * session; a hook asks it before starting one (a read and a signal 0, no process started).
 * @module
 */
import { join } from 'node:path';
import { safeFileName } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { isOwnerAlive } from '../home/process-alive.ts';
import { lockFileHolder, takeLockFile } from '../sync/worker-locks.ts';

const alive = (pid: number) => isOwnerAlive(pid);

function lockPath(home: string, sessionId: string): string {
  return join(home, 'cache', 'hooks', `${safeFileName(sessionId)}.watch.lock`);
}

/** The pid of the session's live command watch, or null when none watches. */
export function commandWatcher(home: string, sessionId: string): number | null {
  return lockFileHolder(lockPath(home, sessionId), alive);
}

/** Takes the session's watch for this process: its release, or null when another watches. */
export function takeCommandWatch(home: string, sessionId: string): (() => void) | null {
  ensureDir(home, 'cache', 'hooks');
  return takeLockFile(lockPath(home, sessionId), alive);
}
