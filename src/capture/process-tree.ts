/**
 * Processes the supervisor starts and must be able to stop completely: the agent runs in its own
 * process group, but Claude Code's Bash tool starts commands in their own sessions, so a group
 * signal alone would leave them running. Linux /proc first, `ps` elsewhere.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

function readStat(pid: number): string[] | null {
  try {
    // "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Parent of every live process, keyed by pid. */
function parentMap(): Map<number, number> {
  const parents = new Map<number, number>();
  if (existsSync('/proc/self/stat')) {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const fields = readStat(Number(name));
      if (fields) parents.set(Number(name), Number(fields[1]));
    }
    return parents;
  }
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  for (const line of (ps.stdout ?? '').split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid && ppid) parents.set(pid, ppid);
  }
  return parents;
}

/** Every live descendant of `root`, children before grandchildren. */
export function listDescendants(root: number): number[] {
  const parents = parentMap();
  const found: number[] = [];
  let frontier = new Set([root]);
  while (frontier.size > 0) {
    const next = new Set<number>();
    for (const [child, parent] of parents) if (frontier.has(parent)) next.add(child);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/**
 * A token that changes when a pid is reused: the process start time in clock ticks (Linux), or
 * null where it cannot be read.
 */
export function getProcessStartTime(pid: number): string | null {
  return readStat(pid)?.[19] ?? null;
}

/** Whether `pid` runs and, when `startTime` is known, is still the same process. */
export function isProcessAlive(pid: number | null | undefined, startTime?: string | null): boolean {
  if (!pid || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const fields = readStat(pid);
  if (fields?.[0] === 'Z') return false; // exited, not yet reaped
  if (startTime && fields) return fields[19] === startTime;
  return true;
}

export function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Signals the group led by `pgid` and every descendant of its leader. */
export function signalTree(pgid: number, signal: NodeJS.Signals): void {
  const tree = listDescendants(pgid);
  signalQuietly(-pgid, signal);
  for (const pid of tree) signalQuietly(pid, signal);
}

/**
 * Whether a live pid runs shim (its command line names shim or its loop), so that a pid reused
 * by another program is not taken for a supervisor. Unknown (no /proc) counts as yes.
 */
export function looksLikeShimProcess(pid: number): boolean {
  try {
    return /shim|loop/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}
