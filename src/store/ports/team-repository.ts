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
  | 'session'
  | 'checkpoint'
  | 'handoff'
  | 'compaction_summary'
  | 'loop_run'
  | 'loop_event'
  /** A checkpoint's uncommitted files as a patch on its base commit (id: the checkpoint's). */
  | 'file_patch';

/** The body of a `file_patch` row: `git diff --binary <baseCommit> <snapshotCommit>`, redacted. */
export type FilePatch = {
  checkpointId: string;
  baseCommit: string | null;
  snapshotCommit: string;
  patch: string;
  bytes: number;
};

/** A row the server refuses for good (what it holds, not where it is): set aside, not retried. */
export type RefusedRow = { kind: TeamRowKind; id: string; reason: string };

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
  /** The project's path inside its repository ('' at its root): never another machine's path. */
  projectPath: string;
  machine: string;
  osUser: string;
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
  /** The project's path inside its repository ('' at its root): never another machine's path. */
  projectPath: string;
  machine: string;
  osUser: string;
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
  /** The root of the clone it was taken in (another machine's: never printed as it is). */
  cloneRoot: string | null;
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
  /** Only this session's rows (`shim list --session`). */
  sessionId?: string;
  limit: number;
};

/** A checkpoint of the team's, with who wrote it (for the CLI's reads of team work). */
export type TeamCheckpoint = Omit<TeamWorkFound, 'reason' | 'handoffId'> & {
  endedAt: string | null;
};

export interface TeamRepository {
  /**
   * Writes the rows in one transaction; a row already there is left or updated to its newer
   * version. Rows the server refuses for good (a value it cannot store) are written one by one
   * around and returned; a server that cannot be reached throws.
   */
  write(rows: readonly TeamRow[]): Promise<{ refused: RefusedRow[] }>;
  /** Per project, the newest unfinished work (a team handoff first) not written by `exclude`. */
  newestUnfinished(
    projectIds: readonly string[],
    exclude: { machine: string; osUser: string },
    since: string,
  ): Promise<TeamWorkFound[]>;
  listSessions(scope: TeamReadScope): Promise<TeamSessionSummary[]>;
  /** Checkpoints of these projects not written by `exclude`, newest first. */
  listCheckpoints(
    scope: TeamReadScope,
    exclude: { machine: string; osUser: string } | null,
  ): Promise<TeamCheckpoint[]>;
  /** The checkpoints whose id is `idOrPrefix` or starts with it (≥ 4 characters), within the projects. */
  findCheckpoint(idOrPrefix: string, scope: TeamReadScope): Promise<TeamCheckpoint[]>;
  /** The newest checkpoint of each session whose id is or starts with `sessionIdOrPrefix`. */
  findSessionCheckpoint(sessionIdOrPrefix: string, scope: TeamReadScope): Promise<TeamCheckpoint[]>;
  /** The files that travel with a checkpoint, when any did. */
  filePatch(checkpointId: string): Promise<FilePatch | null>;
  /** Deletes every row of a session (and its checkpoints' files); the rows removed per table. */
  forgetSession(sessionId: string): Promise<Record<string, number>>;
  /** Deletes one checkpoint's rows (its files, handoffs, summaries); the rows removed per table. */
  forgetCheckpoint(checkpointId: string): Promise<Record<string, number>>;
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

/** What a pull needs of the team store (the pull a starting session waits for opens only this). */
export type TeamPullSource = Pick<TeamRepository, 'newestUnfinished' | 'pickUpHandoff' | 'close'>;
