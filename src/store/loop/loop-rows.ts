/**
 * The rows of `shim loop`'s three tables (migration 4): a run, its iterations, the index of its
 * event log, as records, and how each record maps to its columns (table-mapping.ts). Event data
 * is kept to {@link LOOP_EVENT_DATA_MAX} characters of JSON in the index (the log file holds it
 * whole). loop-repository.ts reads and writes them.
 * @module
 */
import {
  column,
  jsonObject,
  jsonObjectOrNull,
  parseJsonObject,
  recordFromRow,
  type TableMapping,
} from './table-mapping.ts';
import type {
  LoopEventRecord,
  LoopIterationRecord,
  LoopRunRecord,
  LoopRunStatus,
} from '../ports/loops.ts';

/** Statuses of a run whose supervisor is (or should be) alive. */
export const ACTIVE_LOOP_STATUSES: readonly LoopRunStatus[] = ['running', 'waiting'];

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
export const RUN_FIELDS: TableMapping<LoopRunRecord> = {
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

export const ITERATION_FIELDS: TableMapping<LoopIterationRecord> = {
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

export const EVENT_FIELDS: TableMapping<LoopEventRecord> = {
  runId: column('run_id'),
  seq: column('seq'),
  at: column('at'),
  name: column('name'),
  iteration: column('iteration'),
  correlationId: column('correlation_id'),
  fileOffset: column('file_offset'),
  data: column('data'),
};

export type Row = Record<string, unknown>;
export const toRun = (row: Row) => recordFromRow(RUN_FIELDS, row);
export const toIteration = (row: Row) => recordFromRow(ITERATION_FIELDS, row);
export const toEvent = (row: Row) => recordFromRow(EVENT_FIELDS, row);
