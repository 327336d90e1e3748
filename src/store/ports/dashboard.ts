/**
 * What the dashboard reads of sessions: counts, facts, the restores between sessions, a session's
 * timeline. store/checkpoints/dashboard-queries.ts implements it.
 * @module
 */

export type TimelineCheckpoint = {
  id: string;
  number: number;
  createdAt: string;
  trigger: string;
  /** The transcript line the checkpoint reflects; null for rows that predate it. */
  line: number | null;
  restoredAt: string | null;
};

export type TimelineRestore = {
  checkpointId: string;
  /** The session the checkpoint was taken in. */
  fromSession: string | null;
  /** The session it was restored into. */
  intoSession: string;
  restoredAt: string;
  reason: string;
};

export interface DashboardViews {
  countBySession(): Map<string, { checkpoints: number; restores: number }>;
  sessionFacts(): Map<string, { peak: number | null; handedOff: boolean }>;
  listRestoreLinks(): TimelineRestore[];
  /** The newest checkpoint's time (ISO) per session, for the live page's sessions. */
  newestCheckpointBySession(sessionIds: readonly string[]): Map<string, string>;
  listTimelineCheckpoints(sessionId: string): TimelineCheckpoint[];
  listRestores(sessionId: string): TimelineRestore[];
  getCompactionSummary(
    checkpointId: string,
  ): { summary: string; trigger: string; recordedAt: string } | null;
}
