/**
 * Reads the hook payload from stdin. Synchronously from fd 0 when it is a pipe or a file (what
 * Claude Code gives a hook): `process.stdin` would load Node's socket and stream machinery, which
 * costs more than the rest of a hook. Bounded in size; a terminal yields nothing.
 * @module
 */
import { fstatSync, readSync } from 'node:fs';

const MAX_BYTES = 8 * 1024 * 1024;

export function readStdin(fd = 0): Promise<string> {
  try {
    const stat = fstatSync(fd);
    if (!stat.isFIFO() && !stat.isFile() && !stat.isSocket()) return Promise.resolve('');
    const chunks: Buffer[] = [];
    let size = 0;
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue;
        if ((error as NodeJS.ErrnoException).code === 'EOF') break;
        throw error;
      }
      if (n <= 0) break;
      size += n;
      if (size > MAX_BYTES) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
    return Promise.resolve(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return Promise.resolve('');
  }
}
