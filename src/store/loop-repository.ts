/**
 * What the store knows about `shim loop` runs (migration 4): the run itself, its iterations, and
 * an index of its event log. The log file (store/loop-event-log.ts) is the source of truth; the
 * `loop_events` rows only make it queryable, with `data` cut to {@link LOOP_EVENT_DATA_MAX}
 * characters of JSON. Every write takes the lock up front (BEGIN IMMEDIATE).
 * @module
 */
import { AppError } from '../core/errors.ts';
import { withWriteTransaction, type Database } from './database.ts';

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
  return parseObject(event.data);
}

type SqlValue = string | number | null;
type Column = { column: string; toSql: (value: unknown) => SqlValue };

const plain = (column: string): Column => ({ column, toSql: (value) => value as SqlValue });
const json = (column: string): Column => ({
  column,
  toSql: (value) => (value === null ? null : JSON.stringify(value)),
});

/** camelCase field → column, for every field a patch may set (the keys are the only SQL). */
const RUN_COLUMNS: Record<keyof LoopRunPatch, Column> = {
  updatedAt: plain('updated_at'),
  cwd: plain('cwd'),
  goal: plain('goal'),
  status: plain('status'),
  stopReason: plain('stop_reason'),
  options: json('options'),
  startCommit: plain('start_commit'),
  iteration: plain('iteration'),
  restarts: plain('restarts'),
  sessionId: plain('session_id'),
  supervisorPid: plain('supervisor_pid'),
  costUsd: plain('cost_usd'),
  contextTokens: plain('context_tokens'),
  contextPercent: plain('context_percent'),
  lastEvent: plain('last_event'),
  waitUntil: plain('wait_until'),
  state: json('state'),
  endedAt: plain('ended_at'),
  compactedAt: plain('compacted_at'),
};

const ITERATION_COLUMNS: Record<keyof LoopIterationPatch, Column> = {
  sessionId: plain('session_id'),
  mode: plain('mode'),
  prompt: plain('prompt'),
  startedAt: plain('started_at'),
  endedAt: plain('ended_at'),
  outcome: plain('outcome'),
  agentPid: plain('agent_pid'),
  exitCode: plain('exit_code'),
  costUsd: plain('cost_usd'),
  responses: plain('responses'),
  toolCalls: plain('tool_calls'),
  peakContextTokens: plain('peak_context_tokens'),
  lastContextTokens: plain('last_context_tokens'),
  peakPercent: plain('peak_percent'),
  resultText: plain('result_text'),
  streamOffset: plain('stream_offset'),
  checkpointId: plain('checkpoint_id'),
};

type RunRow = {
  run_id: string;
  created_at: string;
  updated_at: string;
  cwd: string;
  goal: string;
  status: string;
  stop_reason: string | null;
  options: string;
  start_commit: string | null;
  iteration: number;
  restarts: number;
  session_id: string | null;
  supervisor_pid: number | null;
  cost_usd: number;
  context_tokens: number | null;
  context_percent: number | null;
  last_event: string | null;
  wait_until: string | null;
  state: string | null;
  ended_at: string | null;
  compacted_at: string | null;
};

type IterationRow = {
  run_id: string;
  number: number;
  session_id: string | null;
  mode: string;
  prompt: string;
  started_at: string;
  ended_at: string | null;
  outcome: string | null;
  agent_pid: number | null;
  exit_code: number | null;
  cost_usd: number | null;
  responses: number;
  tool_calls: number;
  peak_context_tokens: number | null;
  last_context_tokens: number | null;
  peak_percent: number | null;
  result_text: string | null;
  stream_offset: number;
  checkpoint_id: string | null;
};

type EventRow = {
  run_id: string;
  seq: number;
  at: string;
  name: string;
  iteration: number | null;
  correlation_id: string | null;
  file_offset: number;
  data: string | null;
};

function parseObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const toRun = (r: RunRow): LoopRunRecord => ({
  runId: r.run_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  cwd: r.cwd,
  goal: r.goal,
  status: r.status as LoopRunStatus,
  stopReason: r.stop_reason,
  options: parseObject(r.options) ?? {},
  startCommit: r.start_commit,
  iteration: r.iteration,
  restarts: r.restarts,
  sessionId: r.session_id,
  supervisorPid: r.supervisor_pid,
  costUsd: r.cost_usd,
  contextTokens: r.context_tokens,
  contextPercent: r.context_percent,
  lastEvent: r.last_event,
  waitUntil: r.wait_until,
  state: parseObject(r.state),
  endedAt: r.ended_at,
  compactedAt: r.compacted_at,
});

const toIteration = (r: IterationRow): LoopIterationRecord => ({
  runId: r.run_id,
  number: r.number,
  sessionId: r.session_id,
  mode: r.mode as LoopIterationMode,
  prompt: r.prompt,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  outcome: r.outcome,
  agentPid: r.agent_pid,
  exitCode: r.exit_code,
  costUsd: r.cost_usd,
  responses: r.responses,
  toolCalls: r.tool_calls,
  peakContextTokens: r.peak_context_tokens,
  lastContextTokens: r.last_context_tokens,
  peakPercent: r.peak_percent,
  resultText: r.result_text,
  streamOffset: r.stream_offset,
  checkpointId: r.checkpoint_id,
});

const toEvent = (r: EventRow): LoopEventRecord => ({
  runId: r.run_id,
  seq: r.seq,
  at: r.at,
  name: r.name,
  iteration: r.iteration,
  correlationId: r.correlation_id,
  fileOffset: r.file_offset,
  data: r.data,
});

/** `SET a = ?, b = ?` and its values for the patch's own, known fields. */
function setClause(
  columns: Readonly<Record<string, Column>>,
  patch: object,
): { sql: string; values: SqlValue[] } {
  const parts: string[] = [];
  const values: SqlValue[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const column = Object.hasOwn(columns, key) ? columns[key] : undefined;
    if (!column || value === undefined) continue;
    parts.push(`${column.column} = ?`);
    values.push(column.toSql(value));
  }
  return { sql: parts.join(', '), values };
}

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
      ...withoutUndefined(run),
    };
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          `INSERT INTO loop_runs (run_id, created_at, updated_at, cwd, goal, status, stop_reason, options,
             start_commit, iteration, restarts, session_id, supervisor_pid, cost_usd, context_tokens,
             context_percent, last_event, wait_until, state, ended_at, compacted_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          record.runId,
          record.createdAt,
          record.updatedAt,
          record.cwd,
          record.goal,
          record.status,
          record.stopReason,
          JSON.stringify(record.options),
          record.startCommit,
          record.iteration,
          record.restarts,
          record.sessionId,
          record.supervisorPid,
          record.costUsd,
          record.contextTokens,
          record.contextPercent,
          record.lastEvent,
          record.waitUntil,
          record.state === null ? null : JSON.stringify(record.state),
          record.endedAt,
          record.compactedAt,
        );
    });
    return record;
  }

  /**
   * Sets the given fields (and updated_at, to now unless the patch says otherwise); returns the
   * run as stored afterwards, or null when there is no such run.
   */
  updateRun(runId: string, patch: LoopRunPatch): LoopRunRecord | null {
    const { sql, values } = setClause(RUN_COLUMNS, {
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
      RunRow | undefined;
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
      .all(prefix.length, prefix) as RunRow[];
    if (rows.length === 0) return null;
    if (rows.length === 1) return toRun(rows[0]!);
    const shown = rows.slice(0, 10).map((r) => `${r.run_id} (${r.created_at}, ${r.status})`);
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
      .all(...params) as RunRow[];
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
      .get(...params) as RunRow | undefined;
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
      this.#db
        .prepare(
          `INSERT INTO loop_iterations (run_id, number, session_id, mode, prompt, started_at, ended_at,
             outcome, agent_pid, exit_code, cost_usd, responses, tool_calls, peak_context_tokens,
             last_context_tokens, peak_percent, result_text, stream_offset, checkpoint_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(run_id, number) DO UPDATE SET
             session_id = excluded.session_id, mode = excluded.mode, prompt = excluded.prompt,
             started_at = excluded.started_at, ended_at = excluded.ended_at,
             outcome = excluded.outcome, agent_pid = excluded.agent_pid,
             exit_code = excluded.exit_code, cost_usd = excluded.cost_usd,
             responses = excluded.responses, tool_calls = excluded.tool_calls,
             peak_context_tokens = excluded.peak_context_tokens,
             last_context_tokens = excluded.last_context_tokens,
             peak_percent = excluded.peak_percent, result_text = excluded.result_text,
             stream_offset = excluded.stream_offset, checkpoint_id = excluded.checkpoint_id`,
        )
        .run(
          record.runId,
          record.number,
          record.sessionId,
          record.mode,
          record.prompt,
          record.startedAt,
          record.endedAt,
          record.outcome,
          record.agentPid,
          record.exitCode,
          record.costUsd,
          record.responses,
          record.toolCalls,
          record.peakContextTokens,
          record.lastContextTokens,
          record.peakPercent,
          record.resultText,
          record.streamOffset,
          record.checkpointId,
        );
    });
    return record;
  }

  /** Sets the given fields; returns the iteration afterwards, or null when there is none. */
  updateIteration(
    runId: string,
    number: number,
    patch: LoopIterationPatch,
  ): LoopIterationRecord | null {
    const { sql, values } = setClause(ITERATION_COLUMNS, patch);
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
      .all(runId) as IterationRow[];
    return rows.map(toIteration);
  }

  getIteration(runId: string, number: number): LoopIterationRecord | null {
    const row = this.#db
      .prepare('SELECT * FROM loop_iterations WHERE run_id = ? AND number = ?')
      .get(runId, number) as IterationRow | undefined;
    return row ? toIteration(row) : null;
  }

  /** Indexes events (cutting `data`), ignoring those already indexed; one transaction. */
  indexEvents(events: readonly LoopEventRecord[]): number {
    if (events.length === 0) return 0;
    return withWriteTransaction(this.#db, () => {
      const insert = this.#db.prepare(
        `INSERT OR IGNORE INTO loop_events (run_id, seq, at, name, iteration, correlation_id, file_offset, data)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      let inserted = 0;
      for (const e of events) {
        const result = insert.run(
          e.runId,
          e.seq,
          e.at,
          e.name,
          e.iteration,
          e.correlationId,
          e.fileOffset,
          truncateEventData(e.data),
        );
        inserted += Number(result.changes);
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
      .all(...params) as EventRow[];
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
