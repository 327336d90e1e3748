/**
 * Per-session figures for `shim stats`. store/checkpoints/stats-queries.ts implements it.
 * @module
 */

export type SessionStatsRow = {
  sessionId: string;
  /** The agent whose session it is (core/agent-id.ts; rows from before agents: `claude`). */
  agent: string;
  cwd: string | null;
  lastSeenAt: string | null;
  checkpointsByTrigger: Record<string, number>;
  restores: number;
  restoresSucceeded: number;
  restoresFailed: number;
  /** Mean share of the checkpoint's requests, files and open tasks shim's restore carried. */
  restoreFidelity: number | null;
  /** The same for Claude Code's own summaries of this session's compactions. */
  claudeSummaryFidelity: number | null;
  compactionSummaries: number;
  signalSamples: Record<string, number>;
};

export interface SessionStats {
  listSessions(root: string | null, limit: number): SessionStatsRow[];
}
