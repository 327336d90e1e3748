/**
 * The event log of a `shim loop` run: `SHIM_HOME/loops/<run>/events.jsonl`, append-only JSON
 * lines, the source of truth for what the supervisor did (docs/specification.md, "Retention and the event log": JSONL + SQLite
 * index). The supervisor may be killed with SIGKILL at any moment, so:
 *
 * - each event is one `write()` of one complete line on an O_APPEND descriptor, then fdatasync;
 *   only then is it acknowledged (returned);
 * - `RunEventLog.open` cuts a torn last line (never acknowledged) and indexes into SQLite what a
 *   crash between the file write and the index write left unindexed;
 * - a failure to index is logged and retried on the next append: the event is already in the file.
 *
 * Compacted (cold) runs keep the log gzipped as `events.jsonl.gz`; readers accept either, and
 * opening a compacted run for writing restores the plain file.
 * @module
 */
import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../core/errors.ts';
import { appendLog } from '../home/log.ts';
import type { LoopEventRecord, Loops } from '../ports/loops.ts';
import { EVENTS_FILE, getRunDir, restoreCompressed } from './loop-run-files.ts';
import { fsyncDir, writeAll } from '../home/safe-file.ts';

export {
  COMPRESSED_EVENTS_FILE,
  EVENTS_FILE,
  getCompressedEventsPath,
  getEventsPath,
  getRunDir,
  getRunDirPath,
  LOOPS_DIR,
} from './loop-run-files.ts';
export { writeFileDurably } from '../home/safe-file.ts';

/** The names the supervisor logs (`loop.<what happened>`). */
export const LOOP_EVENT_NAMES = [
  'loop.started',
  'loop.plan',
  'loop.resumed',
  'loop.iteration_started',
  'loop.agent_session',
  'loop.context_usage',
  'loop.tool_call',
  'loop.agent_error',
  'loop.compaction',
  'loop.context_exhaustion_warning',
  'loop.checkpoint',
  'loop.summary_written',
  'loop.context_exhaustion_restart',
  'loop.iteration_finished',
  'loop.test_run',
  'loop.completion_claimed',
  'loop.mid_work',
  'loop.completed',
  'loop.stuck_detected',
  'loop.stuck_restart',
  'loop.usage_limit_wait',
  'loop.usage_limit_resumed',
  'loop.agent_switched',
  'loop.rescue',
  'loop.agent_timeout',
  'loop.agent_crashed',
  'loop.crash_restart',
  'loop.budget_exceeded',
  'loop.stopped',
  'loop.monitor_error',
] as const;

export type LoopEventName = (typeof LOOP_EVENT_NAMES)[number];

/** One line of events.jsonl. `name` is a string: logs written by other versions may hold others. */
export type LoopEvent = {
  seq: number;
  at: string;
  run: string;
  name: string;
  iteration: number | null;
  correlationId: string | null;
  data: Record<string, unknown>;
};

function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A line as an event, or null when it is not one (torn, garbage, another format). */
export function parseEventLine(text: string): LoopEvent | null {
  let value: Record<string, unknown> | null;
  try {
    value = asObject(JSON.parse(text));
  } catch {
    return null;
  }
  if (!value) return null;
  const { seq, at, run, name, iteration, correlationId, data } = value;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return null;
  if (typeof at !== 'string' || typeof name !== 'string') return null;
  return {
    seq,
    at,
    run: typeof run === 'string' ? run : '',
    name,
    iteration: typeof iteration === 'number' ? iteration : null,
    correlationId: typeof correlationId === 'string' ? correlationId : null,
    data: asObject(data) ?? {},
  };
}

type ScannedLine = { offset: number; text: string; event: LoopEvent | null };

/**
 * The complete (newline-terminated) lines of `bytes`, with their byte offsets (plus `base`), and
 * how many bytes they span: anything after the last newline is a torn line.
 */
export function scanLines(bytes: Buffer, base = 0): { lines: ScannedLine[]; complete: number } {
  const lines: ScannedLine[] = [];
  let start = 0;
  for (;;) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline < 0) break;
    const text = bytes.toString('utf8', start, newline);
    if (text.trim().length > 0)
      lines.push({ offset: base + start, text, event: parseEventLine(text) });
    start = newline + 1;
  }
  return { lines, complete: start };
}

const toRecord = (event: LoopEvent, fileOffset: number, dataJson: string): LoopEventRecord => ({
  runId: event.run,
  seq: event.seq,
  at: event.at,
  name: event.name,
  iteration: event.iteration,
  correlationId: event.correlationId,
  fileOffset,
  data: dataJson,
});

export type AppendOptions = { iteration?: number | null; correlationId?: string | null };

export class RunEventLog {
  readonly home: string;
  readonly runId: string;
  readonly path: string;
  /** Bytes of a torn tail that open() cut off (0 when the file was clean). */
  readonly repairedBytes: number;
  /** Events open() found in the file but not in the index, and indexed. */
  readonly reindexed: number;
  /** Whether open() found the run compacted and restored events.jsonl from events.jsonl.gz. */
  readonly restoredFromCompressed: boolean;
  readonly #repo: Loops;
  #fd: number | null;
  #size: number;
  #lastSeq: number;
  /** Events in the file whose indexing failed; retried with the next append. */
  #backlog: LoopEventRecord[] = [];

  private constructor(fields: {
    home: string;
    runId: string;
    path: string;
    repo: Loops;
    fd: number;
    size: number;
    lastSeq: number;
    repairedBytes: number;
    reindexed: number;
    restoredFromCompressed: boolean;
    backlog: LoopEventRecord[];
  }) {
    this.home = fields.home;
    this.runId = fields.runId;
    this.path = fields.path;
    this.#repo = fields.repo;
    this.#fd = fields.fd;
    this.#size = fields.size;
    this.#lastSeq = fields.lastSeq;
    this.repairedBytes = fields.repairedBytes;
    this.reindexed = fields.reindexed;
    this.restoredFromCompressed = fields.restoredFromCompressed;
    this.#backlog = fields.backlog;
  }

  /** The seq of the last event in the log (0 when it is empty). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /**
   * Opens the run's log for appending (creating it), after repairing what a crash left: a torn
   * last line is cut, unindexed events are indexed. One process at a time may hold a run's log.
   */
  static open(home: string, runId: string, repo: Loops): RunEventLog {
    const dir = getRunDir(home, runId);
    const path = join(dir, EVENTS_FILE);
    const restoredFromCompressed = restoreCompressed(dir);
    const created = !existsSync(path);
    let fd: number;
    try {
      fd = openSync(
        path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
    } catch (error) {
      throw new AppError(
        'STORE_UNAVAILABLE',
        `cannot open the loop event log ${path}: ${(error as Error).message}`,
        'check that SHIM_HOME is writable',
        { cause: error },
      );
    }
    try {
      if (created) fsyncDir(dir);
      const bytes = readFileSync(path);
      const { lines, complete } = scanLines(bytes);
      let keep = complete;
      // The last complete line that does not parse was torn too (e.g. zeros after a power cut).
      const last = lines[lines.length - 1];
      if (last && last.event === null) {
        keep = last.offset;
        lines.pop();
      }
      const repairedBytes = bytes.length - keep;
      if (repairedBytes > 0) {
        ftruncateSync(fd, keep);
        fdatasyncSync(fd);
        appendLog(home, 'warn', 'loop event log: cut a torn last line', {
          runId,
          path,
          bytes: repairedBytes,
        });
      }
      const events: { event: LoopEvent; offset: number; text: string }[] = [];
      let lastSeq = 0;
      let skipped = 0;
      for (const line of lines) {
        if (line.event === null || line.event.seq <= lastSeq) {
          skipped++;
          continue;
        }
        lastSeq = line.event.seq;
        events.push({ event: line.event, offset: line.offset, text: line.text });
      }
      if (skipped > 0)
        appendLog(home, 'warn', 'loop event log: skipped unreadable lines', { runId, skipped });

      let pending: LoopEventRecord[] = [];
      let reindexed = 0;
      try {
        // A restored log lost the index rows compaction dropped: offer every event again.
        const indexed = restoredFromCompressed ? 0 : repo.maxIndexedSeq(runId);
        pending = events
          .filter(({ event }) => event.seq > indexed)
          .map(({ event, offset }) =>
            toRecord({ ...event, run: runId }, offset, JSON.stringify(event.data)),
          );
        reindexed = repo.indexEvents(pending);
        pending = [];
      } catch (error) {
        appendLog(home, 'warn', 'loop event log: cannot index on open', {
          runId,
          error: (error as Error).message,
        });
      }
      return new RunEventLog({
        home,
        runId,
        path,
        repo,
        fd,
        size: keep,
        lastSeq,
        repairedBytes,
        reindexed,
        restoredFromCompressed,
        backlog: pending,
      });
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * Appends one event, durably, and indexes it. Returns once the line is on disk; throws
   * (STORE_UNAVAILABLE) when it could not be written. Indexing failures are only logged.
   */
  append(
    name: LoopEventName,
    data: Record<string, unknown> = {},
    options: AppendOptions = {},
  ): LoopEvent {
    const fd = this.#fd;
    if (fd === null) throw new Error(`the event log of run ${this.runId} is closed`);
    const event: LoopEvent = {
      seq: this.#lastSeq + 1,
      at: new Date().toISOString(),
      run: this.runId,
      name,
      iteration: options.iteration ?? null,
      correlationId: options.correlationId ?? null,
      data,
    };
    const dataJson = JSON.stringify(data);
    const headJson = JSON.stringify({
      seq: event.seq,
      at: event.at,
      run: event.run,
      name: event.name,
      iteration: event.iteration,
      correlationId: event.correlationId,
    });
    const line = Buffer.from(`${headJson.slice(0, -1)},"data":${dataJson}}\n`, 'utf8');
    const offset = this.#size;
    try {
      writeAll(fd, line);
      fdatasyncSync(fd);
    } catch (error) {
      // Leave no partial line behind for the next append to be glued to.
      try {
        ftruncateSync(fd, offset);
      } catch {
        // open() will cut it
      }
      throw new AppError(
        'STORE_UNAVAILABLE',
        `cannot append to the loop event log ${this.path}: ${(error as Error).message}`,
        'check free disk space and that SHIM_HOME is writable',
        { cause: error },
      );
    }
    this.#size = offset + line.length;
    this.#lastSeq = event.seq;
    this.#index(toRecord(event, offset, dataJson));
    return event;
  }

  #index(record: LoopEventRecord): void {
    const batch = [...this.#backlog, record];
    try {
      this.#repo.indexEvents(batch);
      this.#backlog = [];
    } catch (error) {
      this.#backlog = batch;
      appendLog(this.home, 'warn', 'loop event log: cannot index an event (it is in the log)', {
        runId: this.runId,
        seq: record.seq,
        backlog: batch.length,
        error: (error as Error).message,
      });
    }
  }

  /** Closes the file (idempotent). Events whose indexing failed are indexed on the next open. */
  close(): void {
    if (this.#fd === null) return;
    if (this.#backlog.length > 0) {
      try {
        this.#repo.indexEvents(this.#backlog);
        this.#backlog = [];
      } catch {
        // the next open() re-indexes from the file
      }
    }
    closeSync(this.#fd);
    this.#fd = null;
  }
}
