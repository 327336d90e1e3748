/**
 * Read-only queries for the dashboard's lineage: every restore shim recorded, as a link from the
 * session a checkpoint was taken in to the session it was restored into.
 * @module
 */
import type { Database } from './database.ts';

export type RestoreLinkRow = {
  checkpointId: string;
  /** The session the checkpoint was taken in; null when the checkpoint is gone. */
  fromSession: string | null;
  intoSession: string;
  restoredAt: string;
  reason: string;
};

/** Every recorded restore, oldest first. */
export function listRestoreLinks(db: Database): RestoreLinkRow[] {
  const rows = db
    .prepare(
      `SELECT r.checkpoint_id, c.session_id AS from_session, r.session_id AS into_session,
              r.restored_at, r.interruption_reason
       FROM resume_events r LEFT JOIN checkpoints c ON c.id = r.checkpoint_id
       ORDER BY r.restored_at, r.id`,
    )
    .all() as Array<{
    checkpoint_id: string;
    from_session: string | null;
    into_session: string;
    restored_at: string;
    interruption_reason: string;
  }>;
  return rows.map((r) => ({
    checkpointId: r.checkpoint_id,
    fromSession: r.from_session,
    intoSession: r.into_session,
    restoredAt: r.restored_at,
    reason: r.interruption_reason,
  }));
}
