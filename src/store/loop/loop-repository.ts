/**
 * What the store knows about `shim loop` runs (migration 4): the run itself, its iterations, and
 * an index of its event log. The log file (store/loop/loop-event-log.ts) is the source of truth; the
 * `loop_events` rows only make it queryable, with `data` cut to {@link LOOP_EVENT_DATA_MAX}
 * characters of JSON. Every write takes the lock up front (BEGIN IMMEDIATE).
 * The rows and their column mappings are loop-rows.ts's.
 * @module
 */
import { AppError } from '../../core/errors.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import {
  EVENT_FIELDS,
  ITERATION_FIELDS,
  type Row,
  RUN_FIELDS,
  toEvent,
  toIteration,
  toRun,
  truncateEventData,
} from './loop-rows.ts';
import type {
  LoopEventRecord,
  LoopIterationPatch,
  LoopIterationRecord,
  LoopRunPatch,
  LoopRunRecord,
  LoopRunStatus,
  NewLoopIteration,
  NewLoopRun,
} from '../ports/loops.ts';
import { insertSql, rowValues, setClause, type SqlValue } from './table-mapping.ts';
import type { ListEventsOptions, Loops } from '../ports/loops.ts';

export class LoopRepository implements Loops {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  createRun(run: NewLoopRun): LoopRunRecord {
    const record: LoopRunRecord = {
      updatedAt: run.createdAt,
      stopReason: null,
      startCommit: null,
      iteration: 0,
      restarts: 0,
      sessionId: null,
      supervisorPid: null,
      costUsd: 0,
      contextTokens: null,
      contextPercent: null,
      lastEvent: null,
      waitUntil: null,
      state: null,
      endedAt: null,
      compactedAt: null,
      agent: 'claude',
      ...withoutUndefined(run),
    };
    withWriteTransaction(this.#db, () => {
      this.#db.prepare(insertSql('loop_runs', RUN_FIELDS)).run(...rowValues(RUN_FIELDS, record));
    });
    return record;
  }

  /**
   * Sets the given fields (and updated_at, to now unless the patch says otherwise); returns the
   * run as stored afterwards, or null when there is no such run.
   */
  updateRun(runId: string, patch: LoopRunPatch): LoopRunRecord | null {
    const { sql, values } = setClause(RUN_FIELDS, {
      ...patch,
      updatedAt: patch.updatedAt ?? new Date().toISOString(),
    });
    return withWriteTransaction(this.#db, () => {
      this.#db.prepare(`UPDATE loop_runs SET ${sql} WHERE run_id = ?`).run(...values, runId);
      return this.getRun(runId);
    });
  }

  getRun(runId: string): LoopRunRecord | null {
    const row = this.#db.prepare('SELECT * FROM loop_runs WHERE run_id = ?').get(runId) as
      Row | undefined;
    return row ? toRun(row) : null;
  }

  /** The run whose id is or starts with `prefix`; null if none; a USAGE error if ambiguous. */
  findRun(prefix: string): LoopRunRecord | null {
    const exact = this.getRun(prefix);
    if (exact) return exact;
    if (prefix.length === 0) return null;
    const rows = this.#db
      .prepare(
        `SELECT * FROM loop_runs WHERE substr(run_id, 1, ?) = ? ORDER BY created_at DESC LIMIT 11`,
      )
      .all(prefix.length, prefix) as Row[];
    if (rows.length === 0) return null;
    if (rows.length === 1) return toRun(rows[0]!);
    const shown = rows
      .slice(0, 10)
      .map((r) => `${String(r.run_id)} (${String(r.created_at)}, ${String(r.status)})`);
    throw new AppError(
      'USAGE',
      `run id "${prefix}" is ambiguous: it starts ${rows.length > 10 ? 'more than 10' : rows.length} runs: ${shown.join(', ')}`,
      'give more characters of the run id (see shim loop list)',
    );
  }

  /** Runs newest first, optionally only those of one working directory. */
  listRuns(options: { cwd?: string; limit?: number } = {}): LoopRunRecord[] {
    const where = options.cwd === undefined ? '' : 'WHERE cwd = ?';
    const params: SqlValue[] = options.cwd === undefined ? [] : [options.cwd];
    const limit = options.limit === undefined ? '' : 'LIMIT ?';
    if (options.limit !== undefined) params.push(Math.max(0, Math.floor(options.limit)));
    const rows = this.#db
      .prepare(`SELECT * FROM loop_runs ${where} ORDER BY created_at DESC, rowid DESC ${limit}`)
      .all(...params) as Row[];
    return rows.map(toRun);
  }

  /** The newest run, optionally of one working directory and with one of the given statuses. */
  latestRun(
    options: { cwd?: string; statuses?: readonly LoopRunStatus[] } = {},
  ): LoopRunRecord | null {
    const conditions: string[] = [];
    const params: SqlValue[] = [];
    if (options.cwd !== undefined) {
      conditions.push('cwd = ?');
      params.push(options.cwd);
    }
    if (options.statuses !== undefined) {
      if (options.statuses.length === 0) return null;
      conditions.push(`status IN (${options.statuses.map(() => '?').join(', ')})`);
      params.push(...options.statuses);
    }
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const row = this.#db
      .prepare(`SELECT * FROM loop_runs ${where} ORDER BY created_at DESC, rowid DESC LIMIT 1`)
      .get(...params) as Row | undefined;
    return row ? toRun(row) : null;
  }

  /** Inserts the iteration, or replaces every field of the one with the same number. */
  saveIteration(iteration: NewLoopIteration): LoopIterationRecord {
    const record: LoopIterationRecord = {
      sessionId: null,
      endedAt: null,
      outcome: null,
      agentPid: null,
      exitCode: null,
      costUsd: null,
      responses: 0,
      toolCalls: 0,
      peakContextTokens: null,
      lastContextTokens: null,
      peakPercent: null,
      resultText: null,
      streamOffset: 0,
      checkpointId: null,
      ...withoutUndefined(iteration),
    };
    withWriteTransaction(this.#db, () => {
      const upsert = insertSql('loop_iterations', ITERATION_FIELDS, {
        conflictKeys: ['runId', 'number'],
      });
      this.#db.prepare(upsert).run(...rowValues(ITERATION_FIELDS, record));
    });
    return record;
  }

  /** Sets the given fields; returns the iteration afterwards, or null when there is none. */
  updateIteration(
    runId: string,
    number: number,
    patch: LoopIterationPatch,
  ): LoopIterationRecord | null {
    const { sql, values } = setClause(ITERATION_FIELDS, patch);
    return withWriteTransaction(this.#db, () => {
      if (sql)
        this.#db
          .prepare(`UPDATE loop_iterations SET ${sql} WHERE run_id = ? AND number = ?`)
          .run(...values, runId, number);
      return this.getIteration(runId, number);
    });
  }

  getIterations(runId: string): LoopIterationRecord[] {
    const rows = this.#db
      .prepare('SELECT * FROM loop_iterations WHERE run_id = ? ORDER BY number')
      .all(runId) as Row[];
    return rows.map(toIteration);
  }

  getIteration(runId: string, number: number): LoopIterationRecord | null {
    const row = this.#db
      .prepare('SELECT * FROM loop_iterations WHERE run_id = ? AND number = ?')
      .get(runId, number) as Row | undefined;
    return row ? toIteration(row) : null;
  }

  /** Indexes events (cutting `data`), ignoring those already indexed; one transaction. */
  indexEvents(events: readonly LoopEventRecord[]): number {
    if (events.length === 0) return 0;
    return withWriteTransaction(this.#db, () => {
      const insert = this.#db.prepare(insertSql('loop_events', EVENT_FIELDS, { orIgnore: true }));
      let inserted = 0;
      for (const e of events) {
        const values = rowValues(EVENT_FIELDS, { ...e, data: truncateEventData(e.data) });
        inserted += Number(insert.run(...values).changes);
      }
      return inserted;
    });
  }

  /** The highest indexed seq of the run, 0 when none is. */
  maxIndexedSeq(runId: string): number {
    const row = this.#db
      .prepare('SELECT MAX(seq) AS seq FROM loop_events WHERE run_id = ?')
      .get(runId) as { seq: number | null };
    return row.seq ?? 0;
  }

  /** Indexed events in seq order. */
  listEvents(runId: string, options: ListEventsOptions = {}): LoopEventRecord[] {
    const conditions = ['run_id = ?'];
    const params: SqlValue[] = [runId];
    if (options.afterSeq !== undefined) {
      conditions.push('seq > ?');
      params.push(options.afterSeq);
    }
    if (options.names !== undefined) {
      if (options.names.length === 0) return [];
      conditions.push(`name IN (${options.names.map(() => '?').join(', ')})`);
      params.push(...options.names);
    }
    if (options.iteration !== undefined) {
      conditions.push('iteration = ?');
      params.push(options.iteration);
    }
    let limit = '';
    if (options.limit !== undefined) {
      limit = 'LIMIT ?';
      params.push(Math.max(0, Math.floor(options.limit)));
    }
    const rows = this.#db
      .prepare(`SELECT * FROM loop_events WHERE ${conditions.join(' AND ')} ORDER BY seq ${limit}`)
      .all(...params) as Row[];
    return rows.map(toEvent);
  }

  /**
   * Cold storage for a run: drops the index rows of the given event names (they stay in the
   * compressed log) and records when, without touching updated_at; one transaction.
   */
  markCompacted(runId: string, at: string, dropEventNames: readonly string[] = []): number {
    return withWriteTransaction(this.#db, () => {
      let dropped = 0;
      if (dropEventNames.length > 0) {
        const result = this.#db
          .prepare(
            `DELETE FROM loop_events WHERE run_id = ? AND name IN (${dropEventNames.map(() => '?').join(', ')})`,
          )
          .run(runId, ...dropEventNames);
        dropped = Number(result.changes);
      }
      this.#db.prepare('UPDATE loop_runs SET compacted_at = ? WHERE run_id = ?').run(at, runId);
      return dropped;
    });
  }

  /** Deletes the run, its iterations and its indexed events; one transaction. */
  deleteRun(runId: string): boolean {
    return withWriteTransaction(this.#db, () => {
      this.#db.prepare('DELETE FROM loop_events WHERE run_id = ?').run(runId);
      this.#db.prepare('DELETE FROM loop_iterations WHERE run_id = ?').run(runId);
      const result = this.#db.prepare('DELETE FROM loop_runs WHERE run_id = ?').run(runId);
      return Number(result.changes) > 0;
    });
  }
}

/** The object without its undefined-valued fields (so they do not override defaults). */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
