/**
 * Every time a checkpoint was put back into a session, and how it went.
 * store/checkpoints/resume-repository.ts implements it.
 * @module
 */

export type ResumeEventInput = {
  checkpointId: string;
  sessionId: string;
  restoredAt: string;
  interruptionReason: string;
  timeSinceCheckpoint: number;
  resumeConfidence: number;
  success?: boolean | null;
  notes?: string | null;
  /** Share of the checkpoint's requests, files and open tasks the restore text carried. */
  fidelityScore?: number | null;
  /** The same share for Claude Code's own compaction summary, when there was one. */
  claudeFidelityScore?: number | null;
  /** Messages in the receiving session when it was restored: it went on working once it has more. */
  messagesAtRestore?: number | null;
  /** The user asked for this restore (shim resume --record); false when shim made it on its own. */
  userConfirmed?: boolean | null;
};

export type ResumeEvent = ResumeEventInput & { id: string };

export interface Resumes {
  /** Records the restore and marks the checkpoint restored, atomically. */
  record(event: ResumeEventInput): ResumeEvent;
  /**
   * The restores into `sessionId` whose outcome is open: success once the session has more
   * messages than it had at the restore; when it ends without, not a success.
   */
  markOutcome(sessionId: string, messagesNow: number, ended: boolean): void;
  listForCheckpoint(checkpointId: string): ResumeEvent[];
}
