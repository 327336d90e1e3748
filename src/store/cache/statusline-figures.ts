/** What the statusline last saw for a session: Claude Code's own exact figures, for the hooks. */
import { join } from 'node:path';
import { safeFileName } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

export type StatuslineFigures = {
  at: number;
  contextTokens: number | null;
  windowTokens: number | null;
};

const MAX_AGE_MS = 30 * 60 * 1000;

function getFiguresPath(home: string, sessionId: string): string {
  return join(home, 'cache', 'statusline', `${safeFileName(sessionId)}.json`);
}

export function readStatuslineFigures(
  home: string,
  sessionId: string | null,
  now: number,
): StatuslineFigures | null {
  if (!sessionId) return null;
  const value = readJsonFile(getFiguresPath(home, sessionId)) as StatuslineFigures | null;
  return value && typeof value.at === 'number' && now - value.at < MAX_AGE_MS ? value : null;
}

/** Figures this young and unchanged are not written again (readers allow 30 minutes). */
const REWRITE_AFTER_MS = 5 * 60 * 1000;

/**
 * Remembers the figures. Most renders within a turn repeat the last ones: those are not written
 * again (replacing a file costs a rename that starts a write-out on ext4; docs/hot-path.md).
 */
export function writeStatuslineFigures(
  home: string,
  sessionId: string,
  figures: StatuslineFigures,
): void {
  const path = getFiguresPath(home, sessionId);
  const last = readJsonFile(path) as StatuslineFigures | null;
  if (
    last &&
    last.contextTokens === figures.contextTokens &&
    last.windowTokens === figures.windowTokens &&
    typeof last.at === 'number' &&
    figures.at - last.at >= 0 &&
    figures.at - last.at < REWRITE_AFTER_MS
  )
    return;
  ensureDir(home, 'cache', 'statusline');
  writeJsonFileAtomic(path, figures);
}
