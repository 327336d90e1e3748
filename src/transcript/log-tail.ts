/**
 * The bytes an agent's log gained since an offset, for the quiet look of every agent (its
 * `log.tail`, core/policy/quiet-window.ts): read only up to a bound, as text, nothing folded.
 * @module
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openLogFile } from './open-log.ts';

/** Reads the appended bytes only up to this much; more means a full look anyway. */
export const MAX_TAIL_BYTES = 1024 * 1024;

/**
 * The log's bytes from `offset` on, as text; null when the file is shorter than that
 * (rewritten), longer by more than MAX_TAIL_BYTES, or unreadable.
 */
export function readTail(path: string, offset: number): string | null {
  let fd: number | undefined;
  try {
    fd = openLogFile(path);
    const size = fstatSync(fd).size;
    if (size < offset || size - offset > MAX_TAIL_BYTES) return null;
    const buffer = Buffer.allocUnsafe(size - offset);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
