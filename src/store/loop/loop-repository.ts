/**
 * What the store knows about `shim loop` runs (migration 4): the run itself, its iterations, and
 * an index of its event log. The log file (store/loop/loop-event-log.ts) is the source of truth; the
 * `loop_events` rows only make it queryable, with `data` cut to {@link LOOP_EVENT_DATA_MAX}
 * characters of JSON. Every write takes the lock up front (BEGIN IMMEDIATE).
 *
 * Over 450 lines on purpose: one repository for migration 4's three tables (runs, iterations,
 * events) — their row types, mappings and queries, read and changed as one.
 * @module
 */
import type { AgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import {
  column,
  insertSql,
  jsonObject,
  jsonObjectOrNull,
  parseJsonObject,
  recordFromRow,
  rowValues,
  setClause,
  type SqlValue,
  type TableMapping,
} from './table-mapping.ts';

export type LoopRunStatus =
  'running' | 'waiting' | 'completed' | 'stopped' | 'failed' | 'interrupted';

/** Statuses of a run whose supervisor is (or should be) alive. */
export const ACTIVE_LOOP_STATUSES: readonly LoopRunStatus[] = ['running', 'waiting'];

export type LoopRunRecord = {
  runId: string;
  createdAt: string;
  updatedAt: string;
  cwd: string;
  goal: string;
  status: LoopRunStatus;
  stopReason: string | null;
  options: Record<string, unknown>;
  startCommit: string | null;
  iteration: number;
  restarts: number;
  sessionId: string | null;
  supervisorPid: number | null;
  costUsd: number;
  contextTokens: number | null;
  contextPercent: number | null;
  lastEvent: string | null;
  waitUntil: string | null;
  state: Record<string, unknown> | null;
  endedAt: string | null;
  compactedAt: string | null;
  /** The agent running the work now (migration 10): the one the run started with, or its fallback. */
  agent: AgentId;
};

/** A new run: what must be known up front; everything else defaults (updatedAt to createdAt). */
export type NewLoopRun = Pick<
  LoopRunRecord,
  'runId' | 'createdAt' | 'cwd' | 'goal' | 'status' | 'options'
> &
  Partial<Omit<LoopRunRecord, 'runId' | 'createdAt' | 'cwd' | 'goal' | 'status' | 'options'>>;

/** Fields to change; `updatedAt` defaults to now. */
export type LoopRunPatch = Partial<Omit<LoopRunRecord, 'runId' | 'createdAt'>>;

export type LoopIterationMode = 'fresh' | 'continue' | 'resume';

export type LoopIterationRecord = {
  runId: string;
  number: number;
  sessionId: string | null;
  mode: LoopIterationMode;
  prompt: string;
  startedAt: string;
  endedAt: string | null;
  outcome: string | null;
  agentPid: number | null;
  exitCode: number | null;
  costUsd: number | null;
  responses: number;
  toolCalls: number;
  peakContextTokens: number | null;
  lastContextTokens: number | null;
  peakPercent: number | null;
  resultText: string | null;
  streamOffset: number;
  checkpointId: string | null;
};

export type NewLoopIteration = Pick<
  LoopIterationRecord,
  'runId' | 'number' | 'mode' | 'prompt' | 'startedAt'
> &
  Partial<Omit<LoopIterationRecord, 'runId' | 'number' | 'mode' | 'prompt' | 'startedAt'>>;

export type LoopIterationPatch = Partial<Omit<LoopIterationRecord, 'runId' | 'number'>>;

/** One indexed event. `data` is the event's data as JSON text, cut to LOOP_EVENT_DATA_MAX. */
export type LoopEventRecord = {
  runId: string;
  seq: number;
  at: string;
  name: string;
  iteration: number | null;
  correlationId: string | null;
  /** Byte offset of the event's line in events.jsonl. */
  fileOffset: number;
  data: string | null;
};

export const LOOP_EVENT_DATA_MAX = 1000;

/** `data` as stored in the index: at most LOOP_EVENT_DATA_MAX characters, never half a pair. */
export function truncateEventData(json: string | null): string | null {
  if (json === null || json.length <= LOOP_EVENT_DATA_MAX) return json;
  let end = LOOP_EVENT_DATA_MAX;
  const last = json.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return json.slice(0, end);
}

/** The indexed data parsed, or null when it is missing or was cut (read the log for it). */
export function parseEventData(event: LoopEventRecord): Record<string, unknown> | null {
  return parseJsonObject(event.data);
}

/** The loop tables' columns, each spelled once (table-mapping.ts derives the SQL). */
const RUN_FIELDS: TableMapping<LoopRunRecord> = {
  runId: column('run_id'),
  createdAt: column('created_at'),
  updatedAt: column('updated_at'),
  cwd: column('cwd'),
  goal: column('goal'),
  status: column('status'),
  stopReason: column('stop_reason'),
  options: jsonObject('options'),
  startCommit: column('start_commit'),
  iteration: column('iteration'),
  restarts: column('restarts'),
  sessionId: column('session_id'),
  supervisorPid: column('supervisor_pid'),
  costUsd: column('cost_usd'),
  contextTokens: column('context_tokens'),
  contextPercent: column('context_percent'),
  lastEvent: column('last_event'),
  waitUntil: column('wait_until'),
  state: jsonObjectOrNull('state'),
  endedAt: column('ended_at'),
  compactedAt: column('compacted_at'),
  agent: column('agent'),
};

const ITERATION_FIELDS: TableMapping<LoopIterationRecord> = {
  runId: column('run_id'),
  number: column('number'),
  sessionId: column('session_id'),
  mode: column('mode'),
  prompt: column('prompt'),
  startedAt: column('started_at'),
  endedAt: column('ended_at'),
  outcome: column('outcome'),
  agentPid: column('agent_pid'),
  exitCode: column('exit_code'),
  costUsd: column('cost_usd'),
  responses: column('responses'),
  toolCalls: column('tool_calls'),
  peakContextTokens: column('peak_context_tokens'),
  lastContextTokens: column('last_context_tokens'),
  peakPercent: column('peak_percent'),
  resultText: column('result_text'),
  streamOffset: column('stream_offset'),
  checkpointId: column('checkpoint_id'),
};

const EVENT_FIELDS: TableMapping<LoopEventRecord> = {
  runId: column('run_id'),
  seq: column('seq'),
  at: column('at'),
  name: column('name'),
  iteration: column('iteration'),
  correlationId: column('correlation_id'),
  fileOffset: column('file_offset'),
  data: column('data'),
};

type Row = Record<string, unknown>;
const toRun = (row: Row) => recordFromRow(RUN_FIELDS, row);
const toIteration = (row: Row) => recordFromRow(ITERATION_FIELDS, row);
const toEvent = (row: Row) => recordFromRow(EVENT_FIELDS, row);

export type ListEventsOptions = {
  afterSeq?: number;
  limit?: number;
  names?: readonly string[];
  iteration?: number;
};

export class LoopRepository {
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
