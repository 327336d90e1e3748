/**
 * Read-only queries for the dashboard (`shim ui`): checkpoint and restore counts per session, a
 * session's checkpoints with the transcript line each reflects, and the restores into or out of
 * a session.
 * @module
 */
import type { Database } from '../sqlite/database.ts';
import { newestCheckpointBySession } from './live-queries.ts';
import { isJson, jsonInteger } from '../sqlite/dialect.ts';
import type { DashboardViews, TimelineCheckpoint, TimelineRestore } from '../ports/dashboard.ts';

/** Checkpoints per session, and restores into each (it was started from a checkpoint). */
export function countBySession(
  db: Database,
): Map<string, { checkpoints: number; restores: number }> {
  const counts = new Map<string, { checkpoints: number; restores: number }>();
  const add = (sql: string, key: 'checkpoints' | 'restores') => {
    for (const row of db.prepare(sql).all() as Array<{ session_id: string; n: number }>) {
      const seen = counts.get(row.session_id) ?? { checkpoints: 0, restores: 0 };
      seen[key] = Number(row.n);
      counts.set(row.session_id, seen);
    }
  };
  add('SELECT session_id, COUNT(*) AS n FROM checkpoints GROUP BY session_id', 'checkpoints');
  add('SELECT session_id, COUNT(*) AS n FROM resume_events GROUP BY session_id', 'restores');
  return counts;
}

/**
 * Per session, what the list shows when the transcript does not say: the largest context a
 * checkpoint recorded, whether a handoff was written for it, and its first checkpoint's first
 * request (the goal a resumed session inherits).
 */
export function sessionFacts(
  db: Database,
): Map<string, { peak: number | null; handedOff: boolean }> {
  const facts = new Map<string, { peak: number | null; handedOff: boolean }>();
  for (const row of db
    .prepare(
      `SELECT session_id, MAX(${jsonInteger('source', '$.contextTokens')}) AS peak FROM checkpoints WHERE ${isJson('source')} GROUP BY session_id`,
    )
    .all() as Array<{ session_id: string; peak: number | null }>)
    facts.set(row.session_id, { peak: row.peak ? Number(row.peak) : null, handedOff: false });
  for (const row of db.prepare('SELECT DISTINCT session_id FROM handoffs').all() as Array<{
    session_id: string;
  }>)
    facts.set(row.session_id, {
      peak: facts.get(row.session_id)?.peak ?? null,
      handedOff: true,
    });
  return facts;
}

/** A session's checkpoints, oldest first. */
export function listTimelineCheckpoints(db: Database, sessionId: string): TimelineCheckpoint[] {
  const rows = db
    .prepare(
      `SELECT id, checkpoint_number, created_at, triggered_by, source, restored_at
       FROM checkpoints WHERE session_id = ? ORDER BY checkpoint_number`,
    )
    .all(sessionId) as Array<{
    id: string;
    checkpoint_number: number;
    created_at: string;
    triggered_by: string;
    source: string | null;
    restored_at: string | null;
  }>;
  return rows.map((r) => {
    let line: number | null = null;
    try {
      const source = r.source ? (JSON.parse(r.source) as { transcriptLine?: unknown }) : null;
      if (typeof source?.transcriptLine === 'number') line = source.transcriptLine;
    } catch {
      // an unreadable source: the checkpoint is shown without a place on the timeline
    }
    return {
      id: r.id,
      number: Number(r.checkpoint_number),
      createdAt: r.created_at,
      trigger: r.triggered_by,
      line,
      restoredAt: r.restored_at,
    };
  });
}

function readRestores(db: Database, where: string, ...params: string[]): TimelineRestore[] {
  const rows = db
    .prepare(
      `SELECT r.checkpoint_id, c.session_id AS from_session, r.session_id AS into_session,
              r.restored_at, r.interruption_reason
       FROM resume_events r LEFT JOIN checkpoints c ON c.id = r.checkpoint_id ${where}`,
    )
    .all(...params) as Array<{
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

/** Restores into `sessionId` and restores of its checkpoints into later sessions. */
export function listRestores(db: Database, sessionId: string): TimelineRestore[] {
  return readRestores(
    db,
    'WHERE r.session_id = ? OR c.session_id = ? ORDER BY r.restored_at',
    sessionId,
    sessionId,
  );
}

/** Every recorded restore, oldest first: the links of the dashboard's lineage. */
export function listRestoreLinks(db: Database): TimelineRestore[] {
  return readRestores(db, 'ORDER BY r.restored_at, r.id');
}

/** Claude Code's own summary recorded with a checkpoint (a compaction's), if any. */
export function getCompactionSummary(
  db: Database,
  checkpointId: string,
): { summary: string; trigger: string; recordedAt: string } | null {
  const row = db
    .prepare(
      `SELECT summary, trigger, recorded_at FROM compaction_summaries WHERE checkpoint_id = ?
       ORDER BY recorded_at DESC LIMIT 1`,
    )
    .get(checkpointId) as { summary: string; trigger: string; recorded_at: string } | undefined;
  return row ? { summary: row.summary, trigger: row.trigger, recordedAt: row.recorded_at } : null;
}

/** The dashboard's reads as a repository over one open database. */
export class DashboardQueries implements DashboardViews {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  countBySession(): Map<string, { checkpoints: number; restores: number }> {
    return countBySession(this.#db);
  }

  sessionFacts(): Map<string, { peak: number | null; handedOff: boolean }> {
    return sessionFacts(this.#db);
  }

  listRestoreLinks(): TimelineRestore[] {
    return listRestoreLinks(this.#db);
  }

  /** The newest checkpoint's time (ISO) per session, for the live page's sessions. */
  newestCheckpointBySession(sessionIds: readonly string[]): Map<string, string> {
    return newestCheckpointBySession(this.#db, sessionIds);
  }

  listTimelineCheckpoints(sessionId: string): TimelineCheckpoint[] {
    return listTimelineCheckpoints(this.#db, sessionId);
  }

  listRestores(sessionId: string): TimelineRestore[] {
    return listRestores(this.#db, sessionId);
  }

  getCompactionSummary(
    checkpointId: string,
  ): { summary: string; trigger: string; recordedAt: string } | null {
    return getCompactionSummary(this.#db, checkpointId);
  }
}
