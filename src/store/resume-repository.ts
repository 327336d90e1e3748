/** resume_events: every time a checkpoint was put back into a session, and how it went. */
import { randomUUID } from 'node:crypto';
import { withWriteTransaction, type Database } from './database.ts';

export type ResumeEventInput = {
  checkpointId: string;
  sessionId: string;
  restoredAt: string;
  interruptionReason: string;
  timeSinceCheckpoint: number;
  resumeConfidence: number;
  success?: boolean | null;
  notes?: string | null;
};

export type ResumeEvent = ResumeEventInput & { id: string };

export class ResumeRepository {
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
             time_since_checkpoint, resume_confidence, success, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        );
      this.#db
        .prepare(
          'UPDATE checkpoints SET restored_at = COALESCE(restored_at, ?), restore_success = ? WHERE id = ?',
        )
        .run(event.restoredAt, event.success === false ? 0 : 1, event.checkpointId);
    });
    return { ...event, id };
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
    }));
  }
}
