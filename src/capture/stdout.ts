/**
 * Writes a hook's or the statusline's answer to fd 1 directly. Claude Code reads them through a
 * pipe, and `process.stdout` on a pipe builds a socket stream first (~3 ms of a call that costs
 * ~5 ms beyond starting Node).
 * @module
 */
import { writeSync } from 'node:fs';

export function writeStdout(text: string, fd = 1): void {
  const data = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < data.length) {
    try {
      written += writeSync(fd, data, written);
    } catch (error) {
      // A non-blocking pipe that is full for a moment: try again.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
  }
}
