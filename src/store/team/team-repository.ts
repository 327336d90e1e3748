/**
 * The team store's repository, in domain terms (docs/team.md): replicated rows go in, in order,
 * idempotent by id; reads come back scoped to projects. One implementation per dialect
 * (`store/postgres/`); the hooks never reach it — only the replication worker and commands do.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';

/** Where a row comes from: the project as every machine names it, and who wrote it where. */
export type RowOrigin = {
  projectId: string;
  /** The project's path inside its repository ('' at its root). */
  projectPath: string;
  machine: string;
  osUser: string;
};

export type TeamRowKind =
  'session' | 'checkpoint' | 'handoff' | 'compaction_summary' | 'loop_run' | 'loop_event';

/** One replicated row: `body` is the redacted domain object as JSON; `at` orders versions. */
export type TeamRow = {
  kind: TeamRowKind;
  id: string;
  sessionId: string | null;
  at: string;
  origin: RowOrigin;
  body: Record<string, unknown>;
};

export type TeamWorkFound = {
  projectId: string;
  checkpoint: Checkpoint;
  sessionId: string;
  machine: string;
  osUser: string;
  createdAt: string;
  reason: 'interrupted' | 'handoff' | 'usage_limit';
  /** The team handoff it came from, to mark picked up. */
  handoffId?: string;
};

export type TeamSessionSummary = {
  sessionId: string;
  projectId: string;
  machine: string;
  osUser: string;
  cwd: string | null;
  lastCheckpointAt: string | null;
  checkpoints: number;
  openTasks: number;
  endedAt: string | null;
  firstRequest: string | null;
};

/** A loop run as the team sees it: the newest version any machine replicated. */
export type TeamLoopRunSummary = {
  runId: string;
  projectId: string;
  machine: string;
  osUser: string;
  cwd: string | null;
  goal: string;
  status: string;
  iteration: number;
  restarts: number;
  costUsd: number;
  lastEvent: string | null;
  createdAt: string | null;
  updatedAt: string;
};

export type TeamSearchHit = {
  checkpointId: string;
  sessionId: string;
  projectId: string;
  machine: string;
  osUser: string;
  createdAt: string;
  rank: number;
  snippet: string;
};

export type TeamReadScope = {
  /** Projects the reader has (never every project on the server). */
  projectIds: readonly string[];
  /** Only this OS user's rows (`--mine`). */
  osUser?: string;
  limit: number;
};

export interface TeamRepository {
  /** Writes the rows in order in one transaction; a row already there is left or updated to its newer version. */
  write(rows: readonly TeamRow[]): Promise<void>;
  /** Per project, the newest unfinished work (a team handoff first) not written by `exclude`. */
  newestUnfinished(
    projectIds: readonly string[],
    exclude: { machine: string; osUser: string },
    since: string,
  ): Promise<TeamWorkFound[]>;
  listSessions(scope: TeamReadScope): Promise<TeamSessionSummary[]>;
  /** Loop runs, the most recently updated first. */
  listLoopRuns(scope: TeamReadScope): Promise<TeamLoopRunSummary[]>;
  search(query: string, scope: TeamReadScope): Promise<TeamSearchHit[]>;
  /** Marks a team handoff picked up by a session. */
  pickUpHandoff(handoffId: string, bySession: string, at: string): Promise<void>;
  /** Deletes rows older than `days` (server-side retention); returns how many. */
  applyRetention(days: number): Promise<number>;
  /** Counts per kind (for tests and `shim team status --verbose`). */
  count(kind: TeamRowKind): Promise<number>;
  /** Whether this connection's role may write the team's rows (a reader's may not). */
  canWrite(): Promise<boolean>;
  close(): Promise<void>;
}
