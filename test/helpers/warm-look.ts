/**
 * The warm look's process (src/hook/warm-look/) as tests and the bench see it: found through its
 * directory under SHIM_HOME/run, waited for by its result (its pid file, its count of answered
 * calls), stopped with SIGTERM as a user's shutdown would.
 */
import { readFileSync } from 'node:fs';
import { listWarmLooks, type WarmLookStats } from '../../src/store/warm-look-place.ts';
import { isProcessAlive } from '../../src/capture/process-tree.ts';

/** The serving directory under `home` (one per build), or null. */
export function warmLookDirIn(home: string): string | null {
  return listWarmLooks(home)[0]?.dir ?? null;
}

/** The pid serving `home`, when one is alive. */
export function warmLookPid(home: string): number | null {
  const pid = listWarmLooks(home)[0]?.pid ?? null;
  return pid !== null && isProcessAlive(pid) ? pid : null;
}

/** What the process last said of itself (written at most once a second). */
export function warmLookStats(home: string): WarmLookStats | null {
  return listWarmLooks(home)[0]?.stats ?? null;
}

/**
 * Resolves with the pid once a warm process serves `home` and `until` holds. `limitMs` only turns
 * one that never comes into a failure; it is not the expected wait.
 */
export async function waitForWarmLook(
  home: string,
  until: (stats: WarmLookStats | null, pid: number) => boolean = () => true,
  limitMs = 60_000,
): Promise<number> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const pid = warmLookPid(home);
    if (pid !== null && until(warmLookStats(home), pid)) return pid;
    if (Date.now() > deadline)
      throw new Error(`no warm look process served ${home} within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** True for a warm look's process (a service the hooks ask, not a job with a result). */
export function isWarmLookProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('\0warm-look');
  } catch {
    return false;
  }
}
