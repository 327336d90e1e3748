/**
 * What an agent's own summary said at each compaction. store/checkpoints/compaction-summary-repository.ts
 * implements it.
 * @module
 */

export type CompactionSummary = {
  id: string;
  sessionId: string;
  recordedAt: string;
  trigger: string;
  /** Redacted before it is stored. */
  summary: string;
  checkpointId: string | null;
};

export interface CompactionSummaries {
  save(entry: Omit<CompactionSummary, 'id'>): CompactionSummary;
  /**
   * Saves unless the session already has a summary from the same compaction (recorded within
   * SAME_COMPACTION_MS): the PostCompact hook and shim's mod both report one.
   */
  saveOnce(entry: Omit<CompactionSummary, 'id'>): boolean;
  /** The newest summary of the session recorded at or after `since` (ISO). */
  getLatest(sessionId: string, since: string): CompactionSummary | null;
  /** Every summary of the session kept with the checkpoint taken before it, oldest first. */
  listWithCheckpoint(sessionId: string): CompactionSummary[];
  count(sessionIds?: readonly string[]): number;
  deleteOlderThan(cutoff: string): number;
}
