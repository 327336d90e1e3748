/** What the statusline last saw for a session: Claude Code's own exact figures, for the hooks. */
import { join } from 'node:path';
import { safeFileName } from '../core/fnv-hash.ts';
import { ensureDir } from './home.ts';
import { readJsonFile, writeJsonFileAtomic } from './json-file.ts';

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

export function writeStatuslineFigures(
  home: string,
  sessionId: string,
  figures: StatuslineFigures,
): void {
  ensureDir(home, 'cache', 'statusline');
  writeJsonFileAtomic(getFiguresPath(home, sessionId), figures);
}
