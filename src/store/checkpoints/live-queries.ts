/**
 * Read-only queries for the dashboard's live page: the newest checkpoint of each running session.
 * @module
 */
import type { Database } from '../sqlite/database.ts';

/** The newest checkpoint's time (ISO) per session, for the sessions given. */
export function newestCheckpointBySession(
  db: Database,
  sessionIds: readonly string[],
): Map<string, string> {
  const out = new Map<string, string>();
  if (sessionIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT session_id, MAX(created_at) AS newest FROM checkpoints
       WHERE session_id IN (${sessionIds.map(() => '?').join(', ')}) GROUP BY session_id`,
    )
    .all(...sessionIds) as Array<{ session_id: string; newest: string }>;
  for (const row of rows) out.set(row.session_id, row.newest);
  return out;
}
