/** Small JSON files written atomically: a reader sees the old file or the new one, never half. */
import { readFileSync } from 'node:fs';
import { writeFileSafely } from './safe-file.ts';

/**
 * Writes held back until {@link flushJsonWrites}, newest text by path; null: written at once.
 * The warm look (hook/warm-look/serve.ts) holds them so that a hook's answer does not wait for
 * replacing its files (a rename over a file costs ~0.2–0.7 ms on ext4: it starts the new data's
 * write-out); its reads see what it holds.
 */
let held: Map<string, string> | null = null;

export function holdJsonWrites(): void {
  held ??= new Map();
}

/** The parsed file, or null when it is missing or unreadable (caches rebuild themselves). */
export function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(held?.get(path) ?? readFileSync(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/** Never through a symbolic link (safe-file.ts). */
export function writeJsonFileAtomic(path: string, value: unknown): void {
  const text = JSON.stringify(value);
  if (held) held.set(path, text);
  else writeFileSafely(path, text);
}

/** A held write of `path` is dropped (the file is being removed). */
export function dropHeldWrite(path: string): void {
  held?.delete(path);
}

/** Forgets every held write (their directory is gone). */
export function dropHeldWrites(): void {
  held?.clear();
}

/** Writes what is held; the paths that could not be written, with why. */
export function flushJsonWrites(): { path: string; error: string }[] {
  const failed: { path: string; error: string }[] = [];
  if (!held) return failed;
  for (const [path, text] of held) {
    try {
      writeFileSafely(path, text);
    } catch (error) {
      failed.push({ path, error: String(error) });
    }
  }
  held.clear();
  return failed;
}
