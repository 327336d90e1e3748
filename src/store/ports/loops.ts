/**
 * `shim loop`'s runs, their iterations and the index of their event logs, in domain terms.
 * store/loop/loop-repository.ts implements it (the rows' columns: loop-rows.ts).
 * @module
 */
import type { AgentId } from '../../core/agent-id.ts';

export type LoopRunStatus =
  'running' | 'waiting' | 'completed' | 'stopped' | 'failed' | 'interrupted';

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

export type ListEventsOptions = {
  afterSeq?: number;
  limit?: number;
  names?: readonly string[];
  iteration?: number;
};

export interface Loops {
  createRun(run: NewLoopRun): LoopRunRecord;
  /**
   * Sets the given fields (and updated_at, to now unless the patch says otherwise); returns the
   * run as stored afterwards, or null when there is no such run.
   */
  updateRun(runId: string, patch: LoopRunPatch): LoopRunRecord | null;
  getRun(runId: string): LoopRunRecord | null;
  /** The run whose id is or starts with `prefix`; null if none; a USAGE error if ambiguous. */
  findRun(prefix: string): LoopRunRecord | null;
  /** Runs newest first, optionally only those of one working directory. */
  listRuns(options?: { cwd?: string; limit?: number }): LoopRunRecord[];
  /** The newest run, optionally of one working directory and with one of the given statuses. */
  latestRun(options?: { cwd?: string; statuses?: readonly LoopRunStatus[] }): LoopRunRecord | null;
  /** Inserts the iteration, or replaces every field of the one with the same number. */
  saveIteration(iteration: NewLoopIteration): LoopIterationRecord;
  /** Sets the given fields; returns the iteration afterwards, or null when there is none. */
  updateIteration(
    runId: string,
    number: number,
    patch: LoopIterationPatch,
  ): LoopIterationRecord | null;
  getIterations(runId: string): LoopIterationRecord[];
  getIteration(runId: string, number: number): LoopIterationRecord | null;
  /** Indexes events (cutting `data`), ignoring those already indexed; one transaction. */
  indexEvents(events: readonly LoopEventRecord[]): number;
  /** The highest indexed seq of the run, 0 when none is. */
  maxIndexedSeq(runId: string): number;
  /** Indexed events in seq order. */
  listEvents(runId: string, options?: ListEventsOptions): LoopEventRecord[];
  /**
   * Cold storage for a run: drops the index rows of the given event names (they stay in the
   * compressed log) and records when, without touching updated_at; one transaction.
   */
  markCompacted(runId: string, at: string, dropEventNames?: readonly string[]): number;
  /** Deletes the run, its iterations and its indexed events; one transaction. */
  deleteRun(runId: string): boolean;
}
