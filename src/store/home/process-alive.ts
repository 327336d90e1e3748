/**
 * Whether the process that holds something of SHIM_HOME's (a claim, a note being built) is still
 * there, for the store's own use (the capture layer's process tree is above it).
 * @module
 */
import { readFileSync } from 'node:fs';

/**
 * A token that changes when a pid is reused: the process's start time in clock ticks (Linux
 * /proc), or null where it cannot be read.
 */
export function startTimeOf(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether `pid` runs — and, when `startTime` is known, is still the process that had it. */
export function isOwnerAlive(pid: number, startTime: string | null = null): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A killed process its parent has not reaped yet (a zombie: a detached process's parent may be
  // slow to) holds nothing any more. Linux says so in /proc; elsewhere it counts as alive.
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z') return false;
  return startTime === null || fields[19] === startTime;
}
