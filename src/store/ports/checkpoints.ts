/**
 * The local store's checkpoints, in domain terms: what the app, the hooks and the commands may
 * ask of them. The SQLite side (store/checkpoints/checkpoint-repository.ts,
 * checkpoint-writer.ts) implements it; only app/open-store.ts and app/open-command-store.ts
 * name that side (test/architecture.test.ts).
 * @module
 */
import type {
  Checkpoint,
  CheckpointDraft,
  CheckpointTrigger,
} from '../../core/checkpoint/checkpoint.ts';
import type { AgentId } from '../../core/agent-id.ts';
import type { CrashRisk } from '../../core/context/risk.ts';
import type { SessionSighting } from './sessions.ts';

/**
 * A checkpoint's bytes: its sections as JSON (`uncompressed`), gzipped whole (`compressed`), and
 * what its row adds to the store (`stored`): the whole sections, or less when it is stored as what
 * changed since the previous checkpoint of its session.
 */
export type CheckpointSize = {
  uncompressed: number;
  compressed: number;
  compressionRatio: number;
  stored: number;
};

/** A checkpoint's facts without its sections (lists, sizes, how it is stored). */
export type CheckpointSummary = {
  id: string;
  sessionId: string;
  checkpointNumber: number;
  createdAt: string;
  triggeredBy: CheckpointTrigger;
  crashRisk: CrashRisk;
  progress: number;
  operation: string | null;
  contextWindowUsage: number | null;
  /** Percent of the auto-compact threshold in use (null for rows that predate the source). */
  contextPercent: number | null;
  messageCount: number | null;
  toolCallCount: number | null;
  size: CheckpointSize;
  restoredAt: string | null;
  cwd: string | null;
  transcriptPath: string | null;
  snapshotRef: string | null;
  /** The agent whose session it is. */
  agent: AgentId;
  /** The checkpoint whose state this one is stored as a change of; null when stored whole. */
  deltaOf: string | null;
};

/** How checkpoints are chained (config `checkpoints`). */
export type ChainSettings = {
  /** Store what changed since the previous checkpoint (false: every checkpoint whole). */
  incremental: boolean;
  /** A whole checkpoint after at most this many changes in a row. */
  fullEvery: number;
};

/** Why a checkpoint could not be rebuilt as stored. */
export type ChainBreak = {
  /** The checkpoint asked for. */
  checkpointId: string;
  sessionId: string;
  /** The checkpoint whose link or step failed. */
  at: string;
  reason: 'missing link' | 'link into another session' | 'chain too long' | 'state mismatch';
  /** What was read instead (the newest checkpoint of the session before the break), if any. */
  fellBackTo: string | null;
};

/** What `shim doctor` says of the chains. */
export type ChainReport = {
  whole: number;
  deltas: number;
  /** Checkpoints rebuilt and checked in full (each recent session's newest). */
  verified: number;
  broken: ChainBreak[];
};

/** A checkpoint as stored: the checkpoint and what it added to the store. */
export type StoredCheckpoint = { checkpoint: Checkpoint; size: CheckpointSize };

/** Checkpoints clean-up would delete, with the snapshot each leaves behind. */
export type CleanupCandidate = { id: string; cwd: string | null; ref: string | null };

/** What a clean-up deleted, and the snapshot refs left to delete. */
export type Cleanup = {
  deleted: number;
  ids: string[];
  snapshots: Array<{ checkpointId: string; cwd: string | null; ref: string }>;
};

export interface Checkpoints {
  /**
   * Stores the draft under the session's next number; returns the stored checkpoint. Given the
   * previous checkpoint of its session (as read), it may be stored as what changed since.
   */
  save(
    draft: CheckpointDraft,
    options?: { base?: Checkpoint | null; chain?: ChainSettings },
  ): StoredCheckpoint;
  getById(id: string): Checkpoint | null;
  /**
   * The checkpoint `id`, and whether its chain is broken: then `checkpoint` is the newest of its
   * session before the break that rebuilds exactly (or null), never a wrong state.
   */
  readChecked(id: string): { checkpoint: Checkpoint | null; broken: ChainBreak | null } | null;
  /** Ids starting with `prefix` (a CLI convenience: `shim show 3f2a`). */
  findIdsByPrefix(prefix: string, limit?: number): string[];
  getMostRecent(sessionId: string): Checkpoint | null;
  /** The newest checkpoint taken in `cwd`, across sessions. */
  getMostRecentForCwd(cwd: string): Checkpoint | null;
  /** The newest checkpoint taken anywhere in the project at `root`. */
  getMostRecentInProject(root: string, options?: { excludeSession?: string }): Checkpoint | null;
  getLatest(): Checkpoint | null;
  /** One checkpoint's facts (no sections read): its size, how it is stored, its trigger. */
  getSummary(id: string): CheckpointSummary | null;
  listBySession(sessionId: string): CheckpointSummary[];
  list(filter?: {
    sessionId?: string;
    cwd?: string;
    project?: string;
    limit?: number;
  }): CheckpointSummary[];
  /** The chains checked: every link, and each recent session's newest rebuilt. */
  checkChains(sessions?: number): ChainReport;
  getRestoredAt(id: string): string | null;
  count(): number;
  markRestored(id: string, success: boolean, fidelity: number | null, at: string): void;
  /**
   * Checkpoints that clean-up would delete: older than `retentionDays`, and — to bring the store
   * under `maxBytes` — the oldest others too. Each session's newest is always kept, so an old
   * interrupted session can still be resumed.
   */
  planCleanup(options: {
    retentionDays: number;
    now: number;
    maxBytes?: number | null;
  }): CleanupCandidate[];
  /** Deletes the given checkpoints (and their restore records); returns how many went. */
  deleteCheckpoints(ids: readonly string[], now: number, retentionDays: number): number;
  /**
   * Deletes checkpoints older than `retentionDays`, keeping each session's newest one. Returns
   * the deleted ids and the snapshot refs to delete.
   */
  cleanup(retentionDays: number, now: number): Cleanup;
}

/** What a stored checkpoint says of its session beyond its own row. */
export type CheckpointSighting = {
  /** The session as the checkpoint saw it (its transcript, directory, CLI version, model). */
  session: Omit<SessionSighting, 'sessionId' | 'agent'>;
  /** When the session was last active: the checkpoint's time, or a dead session's last line. */
  activeAt: string;
};

/** The secrets the home learned that a draft was sealed with, and how to replace them in it. */
export type LearnedSeal = {
  /** The newest learned secret the draft was sealed with. */
  last: number;
  /** The draft with `lines`' values replaced, or null when none stands in it. */
  scrub: (draft: CheckpointDraft, lines: string[]) => CheckpointDraft | null;
};

/** A checkpoint stored with everything it updates besides itself, all or nothing. */
export interface CheckpointWrites {
  /**
   * Stores the draft under the session's next number with its signal sample (bounded per
   * session), marks the restores into the session that it has worked on since as successes (at
   * `session_end`, the rest as failures), and records the sighting. Nothing is kept if any fails.
   * `chain.base`, the previous checkpoint of the session as read, lets it be stored as what
   * changed since. `learned`: secrets learned since the draft was sealed (another process
   * redacting what this draft inherited) are replaced in it before it is stored.
   */
  write(
    sealed: CheckpointDraft,
    sighting: CheckpointSighting,
    chain?: { base: Checkpoint | null; settings: ChainSettings },
    learned?: LearnedSeal | null,
  ): StoredCheckpoint;
}
