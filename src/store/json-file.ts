/** Small JSON files written atomically: a reader sees the old file or the new one, never half. */
import { readFileSync } from 'node:fs';
import { writeFileSafely } from './safe-file.ts';

/** The parsed file, or null when it is missing or unreadable (caches rebuild themselves). */
export function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/** Never through a symbolic link (safe-file.ts). */
export function writeJsonFileAtomic(path: string, value: unknown): void {
  writeFileSafely(path, JSON.stringify(value));
}
