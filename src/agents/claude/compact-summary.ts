/**
 * Claude Code's own summary of the newest compaction: the `isCompactSummary` user entry written
 * right after the compact boundary. Read from the end of the transcript only — right after a
 * compaction it is among the last lines, and the file can be tens of megabytes.
 * @module
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { isObject } from './entry.ts';
import { openLogFile } from '../../transcript/open-log.ts';

const TAIL_BYTES = 1024 * 1024;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: unknown) => (isObject(b) && typeof b.text === 'string' ? b.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** The text of the last compaction summary within the transcript's final megabyte, or null. */
export function readLastCompactSummary(path: string): string | null {
  let fd: number;
  try {
    fd = openLogFile(path);
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    for (let i = lines.length - 1; i >= (start > 0 ? 1 : 0); i--) {
      const line = lines[i]!;
      if (!line.includes('"isCompactSummary":true')) continue;
      try {
        const entry: unknown = JSON.parse(line);
        if (!isObject(entry) || entry.isCompactSummary !== true) continue;
        const message = entry.message;
        const text = isObject(message) ? textOf(message.content) : '';
        if (text !== '') return text;
      } catch {
        // a torn line: look further back
      }
    }
    return null;
  } finally {
    closeSync(fd);
  }
}
