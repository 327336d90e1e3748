/**
 * Waiting for the processes a test set off in the background (a hook's detached `shim checkpoint`,
 * the sync worker, `shim gc --auto`) to finish: a test reads their result once they have exited,
 * never after a guess at how long they take (the machine may be busy). Linux /proc only; elsewhere
 * nothing is found and the callers read at once.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { signalQuietly } from '../../src/capture/process-tree.ts';
import { gone, isWarmLookProcess } from './warm-look.ts';

/**
 * Processes (not this one) whose cwd is under `dir` or whose environment names a path in it. A
 * warm look's process (src/hook/warm-look/) is a service, not a job with a result: left out
 * unless `withServices`.
 */
export function processesUnder(dir: string, withServices = false): number[] {
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const under = (text: string) => text.includes(`=${dir}/`) || text.includes(`=${dir}\0`);
      if (
        cwd === dir ||
        cwd.startsWith(`${dir}/`) ||
        under(readFileSync(`/proc/${pid}/environ`, 'utf8'))
      )
        if (withServices || !isWarmLookProcess(pid)) found.push(pid);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** A process's command line, spaced; its pid once it is gone. */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return String(pid);
  }
}

/**
 * Resolves once no process works under `dir` any more (each background worker has exited).
 * `limitMs` only turns a hung worker into a failure naming it; it is not the expected wait.
 */
export async function waitForProcessesUnder(dir: string, limitMs = 180_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  // A look reads every process's cwd and environment (~5 ms of CPU with ~120 processes, more
  // while a suite runs): looks come 50 ms apart at first, then further apart up to 250 ms, so a
  // long wait does not keep a fifth of a core busy looking.
  let pauseMs = 50;
  for (;;) {
    const pids = processesUnder(dir);
    if (pids.length === 0) return;
    if (Date.now() > deadline) {
      const commands = pids.map(commandOf);
      throw new Error(`still running under ${dir} after ${limitMs} ms: ${commands.join('; ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    pauseMs = Math.min(250, Math.round(pauseMs * 1.5));
  }
}

/**
 * Ends every warm look (src/hook/warm-look/) working under `dir` — serving, or still starting —
 * with SIGTERM, as a user's shutdown would, and resolves once each has exited: a test whose hooks
 * started one ends it (else it waits out its idle minutes after the test).
 */
export async function endWarmLooksUnder(dir: string): Promise<void> {
  const pids = processesUnder(dir, true).filter(isWarmLookProcess);
  for (const pid of pids) signalQuietly(pid, 'SIGTERM');
  for (const pid of pids) await gone(pid);
}
