/**
 * Reading a loop run's events: the whole log (plain or compacted), and following it as the
 * supervisor appends, for `shim loop logs --follow`.
 * @module
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { scanLines, type LoopEvent } from './loop-event-log.ts';
import { getCompressedEventsPath, getEventsPath } from './loop-run-files.ts';

/** The bytes of the run's log (plain, else compressed), or null when it has none. */
function readLogBytes(home: string, runId: string): Buffer | null {
  try {
    return readFileSync(getEventsPath(home, runId));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    return gunzipSync(readFileSync(getCompressedEventsPath(home, runId)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return null;
}

/**
 * Every readable event of the run with seq above `afterSeq`, in file order: a torn last line and
 * unreadable lines are skipped. Reads events.jsonl.gz when the run was compacted; [] when the run
 * has no log.
 */
export function readRunEvents(
  home: string,
  runId: string,
  options: { afterSeq?: number } = {},
): LoopEvent[] {
  const bytes = readLogBytes(home, runId);
  if (!bytes) return [];
  const afterSeq = options.afterSeq ?? 0;
  const events: LoopEvent[] = [];
  let lastSeq = afterSeq;
  for (const { event } of scanLines(bytes).lines) {
    if (event === null || event.seq <= lastSeq) continue;
    lastSeq = event.seq;
    events.push(event);
  }
  return events;
}

export type FollowOptions = {
  afterSeq?: number;
  /** How often to look for new lines; default 500 ms. */
  intervalMs?: number;
  signal?: AbortSignal;
  onEvent: (event: LoopEvent) => void | Promise<void>;
};

/**
 * Calls `onEvent` for every event above `afterSeq`, then for each complete line appended later,
 * polling until `signal` aborts (`shim loop logs --follow`). Waits for a log that does not exist yet.
 */
export async function followRunEvents(
  home: string,
  runId: string,
  options: FollowOptions,
): Promise<void> {
  const { intervalMs = 500, signal, onEvent } = options;
  const path = getEventsPath(home, runId);
  let lastSeq = options.afterSeq ?? 0;
  let offset = 0;
  let compressedRead = false;

  const deliver = async (events: Iterable<LoopEvent | null>): Promise<void> => {
    for (const event of events) {
      if (signal?.aborted) return;
      if (event === null || event.seq <= lastSeq) continue;
      lastSeq = event.seq;
      await onEvent(event);
    }
  };

  while (!signal?.aborted) {
    let fd: number | null = null;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (fd === null) {
      // A compacted run: its whole log at once (a restored log is then read from the start).
      if (!compressedRead && existsSync(getCompressedEventsPath(home, runId))) {
        compressedRead = true;
        await deliver(readRunEvents(home, runId, { afterSeq: lastSeq }));
      }
      offset = 0;
    } else {
      let fresh: Buffer | null = null;
      try {
        const size = fstatSync(fd).size;
        if (size < offset) offset = 0; // replaced or rewritten: seqs filter what was seen
        if (size > offset) {
          fresh = Buffer.alloc(size - offset);
          let read = 0;
          while (read < fresh.length) {
            const n = readSync(fd, fresh, read, fresh.length - read, offset + read);
            if (n === 0) break;
            read += n;
          }
          fresh = fresh.subarray(0, read);
        }
      } finally {
        closeSync(fd);
      }
      if (fresh) {
        const { lines, complete } = scanLines(fresh, offset);
        offset += complete;
        await deliver(lines.map((l) => l.event));
      }
    }
    if (signal?.aborted) break;
    try {
      await delay(intervalMs, undefined, signal ? { signal } : {});
    } catch {
      break; // aborted
    }
  }
}
