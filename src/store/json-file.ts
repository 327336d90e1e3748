/** Small JSON files written atomically: a reader sees the old file or the new one, never half. */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';

/** The parsed file, or null when it is missing or unreadable (caches rebuild themselves). */
export function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

export function writeJsonFileAtomic(path: string, value: unknown): void {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(value), { mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // nothing to clean up
    }
    throw error;
  }
}
