/**
 * Starting the warm look (serve.ts) from a hook that found none: detached, at most once per
 * STARTING_MS for a build, so a process that cannot start (no `mkfifo`, a full disk) costs the
 * hooks one spawn now and then, not one per call.
 * @module
 */
import { chmodSync, closeSync, lstatSync, openSync, statSync, unlinkSync } from 'node:fs';
import { runShimInBackground } from '../../app/run-in-background.ts';
import type { Env } from '../../store/home/home.ts';
import { ensureDir } from '../../store/home/home.ts';
import { distrustDir } from '../../store/home/warm-look-place.ts';

/** How long a start is left to finish before another hook may try again. */
const STARTING_MS = 30_000;

/** The file that says a start is under way (the process removes it once it serves). */
export const startingMark = (dir: string): string => `${dir}.starting`;

export async function startWarmLook(dir: string, home: string, env: Env): Promise<boolean> {
  if (!claimStart(dir, home)) return false;
  return runShimInBackground(['background', 'warm-look'], home, env, home);
}

/**
 * `SHIM_HOME/run`, made — or made owner-only again, whoever loosened it — for the warm look to
 * start in. Throws when SHIM_HOME or run/ is not this user's own, or run/ is a link (ensureDir):
 * the warm look then stays off, and the hooks look in their own process.
 */
export function prepareRunDir(home: string): string {
  const homeDistrust = distrustDir(home, true);
  if (homeDistrust) throw new Error(`${home} is ${homeDistrust}: the warm look does not use it`);
  const run = ensureDir(home, 'run');
  const why = distrustDir(run);
  if (why !== null && !why.startsWith('writable by others'))
    throw new Error(`${run} is ${why}: the warm look does not use it`);
  if ((lstatSync(run).mode & 0o077) !== 0) chmodSync(run, 0o700);
  return run;
}

function claimStart(dir: string, home: string): boolean {
  const mark = startingMark(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      prepareRunDir(home);
      closeSync(openSync(mark, 'wx', 0o600));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      try {
        if (Date.now() - statSync(mark).mtimeMs < STARTING_MS) return false;
        unlinkSync(mark);
      } catch {
        // Removed meanwhile by the process that started: try once more.
      }
    }
  }
  return false;
}
