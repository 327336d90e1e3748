/**
 * Starting the warm look (serve.ts) from a hook that found none: detached, at most once per
 * STARTING_MS for a build, so a process that cannot start (no `mkfifo`, a full disk) costs the
 * hooks one spawn now and then, not one per call.
 * @module
 */
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';
import { runShimInBackground } from '../../app/run-in-background.ts';
import type { Env } from '../../store/home.ts';
import { ensureDir } from '../../store/home.ts';

/** How long a start is left to finish before another hook may try again. */
const STARTING_MS = 30_000;

/** The file that says a start is under way (the process removes it once it serves). */
export const startingMark = (dir: string): string => `${dir}.starting`;

export async function startWarmLook(dir: string, home: string, env: Env): Promise<boolean> {
  if (!claimStart(dir, home)) return false;
  await runShimInBackground(['background', 'warm-look'], home, env, home);
  return true;
}

function claimStart(dir: string, home: string): boolean {
  const mark = startingMark(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      ensureDir(home, 'run');
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
