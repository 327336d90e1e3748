/** resume_events: every time a checkpoint was put back into a session, and how it went. */
import { randomUUID } from 'node:crypto';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import type { Resumes, ResumeEventInput, ResumeEvent } from '../ports/resumes.ts';

export class ResumeRepository implements Resumes {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Records the restore and marks the checkpoint restored, atomically. */
  record(event: ResumeEventInput): ResumeEvent {
    const id = randomUUID();
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          `INSERT INTO resume_events (id, checkpoint_id, session_id, restored_at, interruption_reason,
             time_since_checkpoint, resume_confidence, success, notes, fidelity_score,
             claude_fidelity_score, messages_at_restore, user_confirmed)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          event.checkpointId,
          event.sessionId,
          event.restoredAt,
          event.interruptionReason,
          Math.round(event.timeSinceCheckpoint),
          event.resumeConfidence,
          event.success === undefined || event.success === null ? null : event.success ? 1 : 0,
          event.notes ?? null,
          event.fidelityScore ?? null,
          event.claudeFidelityScore ?? null,
          event.messagesAtRestore ?? null,
          event.userConfirmed === undefined || event.userConfirmed === null
            ? null
            : event.userConfirmed
              ? 1
              : 0,
        );
      this.#db
        .prepare(
          `UPDATE checkpoints SET restored_at = COALESCE(restored_at, ?), restore_success = ?,
             restore_fidelity = COALESCE(?, restore_fidelity) WHERE id = ?`,
        )
        .run(
          event.restoredAt,
          event.success === false ? 0 : 1,
          event.fidelityScore ?? null,
          event.checkpointId,
        );
    });
    return { ...event, id };
  }

  /**
   * The restores into `sessionId` whose outcome is open: success once the session has more
   * messages than it had at the restore; when it ends without, not a success.
   */
  markOutcome(sessionId: string, messagesNow: number, ended: boolean): void {
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          `UPDATE resume_events SET success = 1 WHERE session_id = ? AND success IS NULL
             AND messages_at_restore IS NOT NULL AND messages_at_restore < ?`,
        )
        .run(sessionId, messagesNow);
      if (ended)
        this.#db
          .prepare(
            `UPDATE resume_events SET success = 0 WHERE session_id = ? AND success IS NULL
               AND messages_at_restore IS NOT NULL`,
          )
          .run(sessionId);
    });
  }

  listForCheckpoint(checkpointId: string): ResumeEvent[] {
    const rows = this.#db
      .prepare('SELECT * FROM resume_events WHERE checkpoint_id = ? ORDER BY restored_at')
      .all(checkpointId) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      id: String(r.id),
      checkpointId: String(r.checkpoint_id),
      sessionId: String(r.session_id),
      restoredAt: String(r.restored_at),
      interruptionReason: String(r.interruption_reason),
      timeSinceCheckpoint: Number(r.time_since_checkpoint),
      resumeConfidence: Number(r.resume_confidence),
      success: r.success === null ? null : r.success === 1,
      notes: (r.notes as string | null) ?? null,
      fidelityScore: (r.fidelity_score as number | null) ?? null,
      claudeFidelityScore: (r.claude_fidelity_score as number | null) ?? null,
      userConfirmed:
        r.user_confirmed === null || r.user_confirmed === undefined ? null : r.user_confirmed === 1,
      messagesAtRestore: (r.messages_at_restore as number | null) ?? null,
    }));
  }
}
