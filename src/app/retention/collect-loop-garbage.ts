/**
 * Hot/cold retention for `shim loop` runs (docs/specification.md, "Retention"). A finished run stays hot for `hotDays`:
 * everything kept. Then it is compacted (cold): the event log gzipped, the raw agent streams
 * deleted (summary*.md kept), the per-response `loop.context_usage` rows dropped from the index
 * (they stay in the compressed log). After `retentionDays` the run and its directory go.
 *
 * Each step can be interrupted (kill -9) and is redone by the next pass: the compressed log is
 * written durably before the plain one is removed, and a run counts as compacted only once its
 * plain log is gone.
 * @module
 */
import { getLoopRunLiveness } from '../loop-run-liveness.ts';
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { checkRetentionDays } from '../../core/checkpoint/retention-days.ts';
import {
  COMPRESSED_EVENTS_FILE,
  EVENTS_FILE,
  LOOPS_DIR,
  getRunDirPath,
  writeFileDurably,
} from '../../store/loop/loop-event-log.ts';
import { appendLog } from '../../store/home/log.ts';
import type { Loops } from '../../store/ports/loops.ts';
import type { LoopRunRecord } from '../../store/ports/loops.ts';
import type { Store } from '../open-store.ts';

const DAY_MS = 86_400_000;

/** Index rows compaction drops (one per agent response; the compressed log keeps them). */
export const COLD_DROPPED_EVENTS: readonly string[] = ['loop.context_usage'];

export type LoopGarbageOptions = {
  store: Pick<Store, 'loops'>;
  home: string;
  now: number;
  hotDays?: number;
  retentionDays?: number;
  /** Report what would be done, change nothing. */
  dryRun?: boolean;
};

export type LoopGarbageResult = {
  /** Run ids compacted (or that would be, with dryRun). */
  compacted: string[];
  /** Run ids deleted, and orphan run directories (no run row) removed. */
  deleted: string[];
  freedBytes: number;
};

/** A run a supervisor may still be working on is never touched. */
function mayBeActive(run: LoopRunRecord): boolean {
  const liveness = getLoopRunLiveness(run);
  return liveness === 'supervised' || liveness === 'unknown';
}

/** Total size of the files under `path` (0 when it does not exist). */
function sizeOf(path: string): number {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
}

const isKept = (name: string) =>
  name === COMPRESSED_EVENTS_FILE ||
  name === EVENTS_FILE ||
  (name.startsWith('summary') && name.endsWith('.md'));

export function collectLoopGarbage(options: LoopGarbageOptions): LoopGarbageResult {
  const { store, home, now, hotDays = 7, retentionDays = 30, dryRun = false } = options;
  checkRetentionDays('hot days', hotDays);
  checkRetentionDays('--retention-days', retentionDays);
  const repo = store.loops;
  const result: LoopGarbageResult = { compacted: [], deleted: [], freedBytes: 0 };
  const known = new Set<string>();

  for (const run of repo.listRuns()) {
    known.add(run.runId);
    if (mayBeActive(run)) continue;
    const finishedAt = Date.parse(run.endedAt ?? run.updatedAt);
    if (!Number.isFinite(finishedAt)) continue;
    const age = now - finishedAt;
    let dir: string;
    try {
      dir = getRunDirPath(home, run.runId);
    } catch {
      continue; // an id no log could have been written for
    }
    try {
      if (age > retentionDays * DAY_MS) {
        const freed = sizeOf(dir);
        if (!dryRun) {
          // The directory first: rows left by an interruption are found again next time.
          rmSync(dir, { recursive: true, force: true });
          repo.deleteRun(run.runId);
        }
        result.deleted.push(run.runId);
        result.freedBytes += freed;
      } else if (
        age > hotDays * DAY_MS &&
        (run.compactedAt === null || existsSync(join(dir, EVENTS_FILE)))
      ) {
        const freed = compactRun(repo, run.runId, dir, new Date(now).toISOString(), dryRun);
        if (freed === null) continue;
        result.compacted.push(run.runId);
        result.freedBytes += freed;
      }
    } catch (error) {
      appendLog(home, 'warn', 'loop gc: could not collect a run', {
        runId: run.runId,
        error: (error as Error).message,
      });
    }
  }

  result.freedBytes += removeOrphans(home, known, now, retentionDays, dryRun, result.deleted);
  return result;
}

/**
 * Compacts one run's directory and index; returns the bytes freed, or null when the log changed
 * under it (a supervisor resumed the run) and nothing was removed.
 */
function compactRun(
  repo: Loops,
  runId: string,
  dir: string,
  at: string,
  dryRun: boolean,
): number | null {
  const before = sizeOf(dir);
  const plain = join(dir, EVENTS_FILE);
  const compressed = join(dir, COMPRESSED_EVENTS_FILE);
  let gzipped: Buffer | null = null;
  let plainSize = 0;
  if (existsSync(plain)) {
    const bytes = readFileSync(plain);
    plainSize = bytes.length;
    gzipped = gzipSync(bytes, { level: 9 });
  }
  const doomed = existsSync(dir) ? readdirSync(dir).filter((name) => !isKept(name)) : [];
  if (dryRun) {
    const doomedBytes = doomed.reduce((n, name) => n + sizeOf(join(dir, name)), 0);
    const oldCompressed = gzipped ? sizeOf(compressed) : 0;
    return gzipped ? doomedBytes + plainSize + oldCompressed - gzipped.length : doomedBytes;
  }
  if (gzipped) {
    writeFileDurably(compressed, gzipped);
    // A supervisor that resumed the run meanwhile appended to the plain log: keep it.
    if (statSync(plain).size !== plainSize) {
      unlinkSync(compressed);
      return null;
    }
    unlinkSync(plain);
  }
  for (const name of doomed) rmSync(join(dir, name), { recursive: true, force: true });
  repo.markCompacted(runId, at, COLD_DROPPED_EVENTS);
  return Math.max(0, before - sizeOf(dir));
}

/** Run directories with no run row (e.g. deleted from the database) older than the retention. */
function removeOrphans(
  home: string,
  known: ReadonlySet<string>,
  now: number,
  retentionDays: number,
  dryRun: boolean,
  deleted: string[],
): number {
  const root = join(home, LOOPS_DIR);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return 0;
  }
  let freed = 0;
  for (const name of names) {
    if (known.has(name)) continue;
    const dir = join(root, name);
    try {
      const stats = statSync(dir);
      if (!stats.isDirectory() || now - stats.mtimeMs <= retentionDays * DAY_MS) continue;
      freed += sizeOf(dir);
      if (!dryRun) rmSync(dir, { recursive: true, force: true });
      deleted.push(name);
    } catch {
      // raced with another process
    }
  }
  return freed;
}
