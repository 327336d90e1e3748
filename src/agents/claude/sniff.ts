/**
 * Whether a file holds Claude Code transcript entries at all: a line that is a JSON object with a
 * string `type` and a `sessionId` or `uuid`. Used where "nothing happened in it" and "it is not a
 * transcript" must be told apart (a subagent's sidechain transcript folds to nothing, yet is one).
 * @module
 */
import { closeSync, readSync } from 'node:fs';
import { gunzipHead } from '../../transcript/gunzip-head.ts';
import { openLogFile } from '../../transcript/open-log.ts';

const SNIFF_BYTES = 256 * 1024;

function looksLikeEntry(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    return (
      typeof value.type === 'string' &&
      (typeof value.sessionId === 'string' || typeof value.uuid === 'string')
    );
  } catch {
    return false;
  }
}

function readHead(path: string): string {
  const fd = openLogFile(path);
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, buffer, 0, SNIFF_BYTES, 0);
    const head = buffer.subarray(0, n);
    if (path.endsWith('.gz')) {
      try {
        return gunzipHead(head).subarray(0, SNIFF_BYTES).toString('utf8');
      } catch {
        return '';
      }
    }
    return head.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** True when one of the first lines (up to 256 KB) is a Claude Code transcript entry. */
export function holdsTranscriptEntries(path: string): boolean {
  return readHead(path)
    .split('\n')
    .some((line) => looksLikeEntry(line.trim()));
}

/** The session id and cwd of a transcript, from its first lines that carry them. */
export function readSessionHead(path: string): { sessionId: string | null; cwd: string | null } {
  let sessionId: string | null = null;
  let cwd: string | null = null;
  let head: string;
  try {
    head = readHead(path);
  } catch {
    return { sessionId, cwd };
  }
  for (const line of head.split('\n')) {
    if (sessionId !== null && cwd !== null) break;
    try {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (sessionId === null && typeof value.sessionId === 'string') sessionId = value.sessionId;
      if (cwd === null && typeof value.cwd === 'string') cwd = value.cwd;
    } catch {
      // a torn or foreign line
    }
  }
  return { sessionId, cwd };
}
