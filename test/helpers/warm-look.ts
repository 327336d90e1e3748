/**
 * The warm look's process (src/hook/warm-look/) as tests and the bench see it: found through its
 * directory under SHIM_HOME/run, waited for by its result (its pid file, its count of answered
 * calls), stopped with SIGTERM as a user's shutdown would.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WarmLookStats } from '../../src/store/warm-look-place.ts';
import { isProcessAlive } from '../../src/capture/process-tree.ts';

/** The serving directory under `home` (one per build), or null. */
export function warmLookDirIn(home: string): string | null {
  try {
    const name = readdirSync(join(home, 'run')).find((n) => /^warm-look-[\d-]+$/.test(n));
    return name ? join(home, 'run', name) : null;
  } catch {
    return null;
  }
}

/** The pid serving `home`, when one is alive. */
export function warmLookPid(home: string): number | null {
  const dir = warmLookDirIn(home);
  if (!dir) return null;
  try {
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    return isProcessAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** What the process last said of itself (written at most once a second). */
export function warmLookStats(home: string): WarmLookStats | null {
  const dir = warmLookDirIn(home);
  try {
    return dir
      ? (JSON.parse(readFileSync(join(dir, 'stats.json'), 'utf8')) as WarmLookStats)
      : null;
  } catch {
    return null;
  }
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
