/**
 * The store's own health and upkeep (`shim doctor`, `shim gc`). store/sqlite/store-maintenance.ts
 * implements it.
 * @module
 */

export type NewestActivity = {
  session: { sessionId: string; lastSeenAt: string } | null;
  checkpoint: { sessionId: string; createdAt: string } | null;
};

export interface Maintenance {
  /** SQLite's quick_check: ['ok'] when the file is sound, else the first problems it found. */
  quickCheck(): string[];
  newestActivity(): NewestActivity;
  /** The working directories of checkpoints that left a git snapshot ref behind. */
  snapshotDirectories(): string[];
  /** Gives deleted rows' pages back to the file system (the file shrinks). */
  compact(): void;
  close(): void;
}
