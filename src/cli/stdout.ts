/**
 * Standard output without Node's stdout stream where none is needed. `process.stdout` is made on
 * first touch, and for a pipe that loads node:net and node:stream (~15% of a `shim status` read
 * by `watch` or a script, docs/hot-path.md). A pipe or a file is never a terminal, so the
 * descriptor answers first; the stream is made only for a character device (a terminal, or
 * /dev/null), or where a plain write cannot finish.
 * @module
 */
import { fstatSync, writeSync } from 'node:fs';

let terminal: boolean | undefined;

/** Whether standard output is a terminal. */
export function stdoutIsTerminal(): boolean {
  if (terminal === undefined) {
    let device = false;
    try {
      device = fstatSync(1).isCharacterDevice();
    } catch {
      // no standard output at all: not a terminal
    }
    terminal = device && process.stdout.isTTY === true;
  }
  return terminal;
}

/** The terminal's width, or undefined when output is not a terminal. */
export function stdoutColumns(): number | undefined {
  return stdoutIsTerminal() ? process.stdout.columns : undefined;
}

/**
 * Writes `text` to standard output. Straight to the descriptor; whatever a plain write cannot
 * do (a non-blocking pipe that is full, a closed one) goes to `process.stdout`, which handles
 * it as every other command's output does.
 */
export function writeStdout(text: string): void {
  if (stdoutIsTerminal()) {
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch {
    process.stdout.write(bytes.subarray(written));
  }
}
