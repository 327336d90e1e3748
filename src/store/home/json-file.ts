/** Small JSON files written atomically: a reader sees the old file or the new one, never half. */
import { readFileSync } from 'node:fs';
import { heldBy, writeWhenAnswered } from './write-buffer.ts';

/**
 * The parsed file, or null when it is missing or unreadable (caches rebuild themselves). Inside
 * a write buffer (write-buffer.ts), what it holds for the path.
 */
export function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(heldBy()?.read(path) ?? readFileSync(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/** Never through a symbolic link (safe-file.ts); inside a write buffer, held there. */
export function writeJsonFileAtomic(path: string, value: unknown): void {
  writeWhenAnswered(path, JSON.stringify(value));
}

/** A write of `path` the running work's buffer holds is dropped (the file is being removed). */
export function dropHeldWrite(path: string): void {
  heldBy()?.drop(path);
}
