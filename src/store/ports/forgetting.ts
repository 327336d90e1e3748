/**
 * Forgetting one checkpoint or a whole session: what it would remove (a dry run), and the removal
 * itself (`shim forget`). store/checkpoints/forget-rows.ts implements it.
 * @module
 */

export type ForgetTarget = { kind: 'checkpoint'; id: string } | { kind: 'session'; id: string };

export type ForgetPlan = {
  target: ForgetTarget;
  /** Checkpoints that go, with what else must go with each. */
  checkpoints: Array<{ id: string; cwd: string | null; snapshotRef: string | null }>;
  /** Handoff documents to delete (their rows go with the checkpoints or the session). */
  handoffPaths: string[];
  /** Rows removed per table (what a dry run reports). */
  rows: Record<string, number>;
  /** Sessions that were restored from what goes: they keep their own rows, and may carry its words. */
  restoredInto: string[];
};

export interface Forgetting {
  plan(target: ForgetTarget): ForgetPlan | null;
  /**
   * Deletes the rows; then no byte of them is left in the file: the search index's segments are
   * merged (a deleted entry otherwise stays in an old segment), what that frees is zeroed (every
   * connection writes with `secure_delete`, sqlite/dialect.ts) and the log is emptied.
   */
  forget(plan: ForgetPlan): void;
  /** The transcripts a session's rows name (its own, and those its checkpoints were taken from). */
  transcriptPaths(sessionId: string): string[];
}
