/**
 * Splits a byte stream into lines without ever holding more than one line in memory, so files
 * larger than a JS string can hold are read in chunks, and a runaway line is skipped rather
 * than buffered.
 * @module
 */

/** Lines longer than this are skipped unread (counted as oversized). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

export type LineHandler = (text: string, line: number) => void;

export type SplitterStart = {
  /** Byte offset of the first byte pushed. */
  offset: number;
  /** Lines already consumed before `offset`. */
  line: number;
  /** The previous read consumed an unterminated final line: its newline is still to come. */
  skipNewline: boolean;
};

export class LineSplitter {
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  private oversized = false;
  private pendingSkip: boolean;
  /** Offset just after the last complete line. */
  committedOffset: number;
  /** Number of the last complete line. */
  line: number;
  oversizedLines: number[] = [];
  private readonly onLine: LineHandler;
  private readonly maxLineBytes: number;

  constructor(onLine: LineHandler, start: SplitterStart, maxLineBytes = DEFAULT_MAX_LINE_BYTES) {
    this.onLine = onLine;
    this.maxLineBytes = maxLineBytes;
    this.committedOffset = start.offset;
    this.line = start.line;
    this.pendingSkip = start.skipNewline;
  }

  push(chunk: Buffer): void {
    let start = 0;
    if (this.pendingSkip && chunk.length > 0) {
      this.pendingSkip = false;
      const skip = chunk[0] === NEWLINE ? 1 : chunk[0] === CR && chunk[1] === NEWLINE ? 2 : 0;
      start = skip;
      this.committedOffset += skip;
    }
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      this.completeLine(chunk, start, nl);
      start = nl + 1;
    }
    if (start < chunk.length) this.carry(chunk.subarray(start));
  }

  /** The bytes of an unterminated last line, or null when there are none (or too many). */
  remainder(): Buffer | null {
    if (this.oversized || this.pieceBytes === 0) return null;
    return this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
  }

  /** Treats the unterminated remainder as a complete line (its newline has not arrived yet). */
  acceptRemainder(text: string): void {
    const bytes = this.pieceBytes;
    this.reset();
    this.line++;
    this.committedOffset += bytes;
    this.pendingSkip = true;
    this.onLine(text, this.line);
  }

  get skipNewline(): boolean {
    return this.pendingSkip;
  }

  private carry(bytes: Buffer): void {
    if (this.oversized) {
      this.pieceBytes += bytes.length;
      return;
    }
    if (this.pieceBytes + bytes.length > this.maxLineBytes) {
      this.oversized = true;
      this.pieces = [];
      this.pieceBytes += bytes.length;
      return;
    }
    // Copy: the caller reuses its read buffer.
    this.pieces.push(Buffer.from(bytes));
    this.pieceBytes += bytes.length;
  }

  private completeLine(chunk: Buffer, start: number, end: number): void {
    const length = this.pieceBytes + (end - start);
    this.line++;
    this.committedOffset += length + 1;
    if (this.oversized || length > this.maxLineBytes) {
      this.oversizedLines.push(this.line);
      this.reset();
      return;
    }
    let stop = end;
    let text: string;
    if (this.pieceBytes === 0) {
      if (stop > start && chunk[stop - 1] === CR) stop--;
      text = chunk.toString('utf8', start, stop);
    } else {
      const whole = Buffer.concat([...this.pieces, chunk.subarray(start, end)]);
      const last =
        whole.length > 0 && whole[whole.length - 1] === CR ? whole.length - 1 : whole.length;
      text = whole.toString('utf8', 0, last);
    }
    this.reset();
    this.onLine(text, this.line);
  }

  private reset(): void {
    this.pieces = [];
    this.pieceBytes = 0;
    this.oversized = false;
  }
}
