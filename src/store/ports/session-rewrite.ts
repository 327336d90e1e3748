/**
 * A session's stored text replaced by its redacted version, old copies erased
 * (app/checkpoint/redact-stored-session.ts). store/checkpoints/session-rewrite.ts implements it.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';

/** One tracker outbox entry's payload (store/sync/sync-outbox.ts `OutboxDraft.payload`). */
export type OutboxPayload = { id: number; payload: Record<string, string> };

export interface SessionRewrites {
  /** Every checkpoint of the session, whole (rebuilt from its chain), oldest first. */
  checkpoints(sessionId: string): Checkpoint[];
  /**
   * The sessions restored from `sessionId`, and those restored from them, in that order: their
   * checkpoints carry what they inherited from it (core/checkpoint/lineage.ts), so what it learns
   * later must reach them too.
   */
  descendants(sessionId: string): string[];
  /**
   * `work` (reading rows, then `replace`) as one write transaction: another process's rewrite of
   * the same rows (a session restored from this one learns its own secrets meanwhile) cannot
   * land between the read and the write and be undone by it.
   */
  atomically<T>(work: () => T): T;
  /**
   * Checkpoints created since `since` of sessions this machine never ran (no session row here):
   * copies of another machine's, taken from the team store when a session here restored them.
   */
  pulledCopies(since: string): Array<{ id: string; sessionId: string }>;
  /** Every session with stored text here (checkpoints, summaries, handoffs, tracker payloads). */
  sessionIds(): string[];
  /** The transcripts of the sessions seen here (their folded states are cached by path). */
  transcriptPaths(): string[];
  /** The session's compaction summaries. */
  summaries(sessionId: string): Array<{ id: string; summary: string }>;
  /** The session's handoff documents: their rows' ids and the files' paths. */
  handoffs(sessionId: string): Array<{ id: string; path: string }>;
  /**
   * What the session queued for issue trackers (store/sync/sync-outbox.ts), sent or not: its
   * payloads were redacted with what the session knew when they were queued. The team store's
   * entries carry no text (their rows are read when sent) and are not among them.
   */
  trackerPayloads(sessionId: string): OutboxPayload[];
  /**
   * Replaces the content of stored checkpoints (their sections, source and search entry; ids,
   * numbers and times stay), of compaction summaries and of tracker payloads, then erases what
   * SQLite kept of the old content. Returns how many rows changed.
   */
  replace(
    checkpoints: readonly Checkpoint[],
    summaries: ReadonlyArray<{ id: string; summary: string }>,
    handoffIds?: readonly string[],
    payloads?: readonly OutboxPayload[],
  ): number;
}
