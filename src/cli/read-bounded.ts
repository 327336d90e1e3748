/**
 * Reads a file or standard input whole, up to a bound: `shim import /dev/zero` or `yes | shim
 * import -` would otherwise fill memory until the process is killed. Read as a stream, so a
 * non-blocking standard input (EAGAIN for a synchronous read) and a named pipe are read as they
 * come.
 * @module
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

/** Far larger than an export of one session (docs/export-import.md): a file past it is not one. */
export const IMPORT_MAX_BYTES = 256 * 1024 * 1024;

export class TooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`more than ${Math.round(limit / (1024 * 1024))} MiB`);
    this.limit = limit;
  }
}

/** The bytes of `path` ('-' for standard input), or a TooLargeError past `limit` bytes. */
export async function readBounded(path: string, limit: number): Promise<Buffer> {
  const stream: Readable = path === '-' ? process.stdin : createReadStream(path);
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early (the bound) destroys the stream: nothing more is read.
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > limit) throw new TooLargeError(limit);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}
