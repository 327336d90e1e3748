/**
 * Handoff documents written for a next session. The ones the user asked for (`shim handoff`)
 * are picked up once by the next session started in their project, even after a clean exit:
 * that is what a handoff is for. The ones shim writes itself (before a compaction, at L2/L3)
 * are kept for reading, not injected.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import { matchProject } from '../sqlite/project-match.ts';
import type { Handoffs, HandoffKind, HandoffRecord } from '../ports/handoffs.ts';

/** Handoffs a next session picks up once: the user's, and the one written at a usage limit. */
export const PICKED_UP_KINDS: readonly HandoffKind[] = ['user', 'usage_limit'];

type Row = {
  id: string;
  checkpoint_id: string;
  session_id: string;
  project: string | null;
  path: string;
  kind: string;
  created_at: string;
  picked_up_at: string | null;
  picked_up_by: string | null;
};

const toRecord = (r: Row): HandoffRecord => ({
  id: r.id,
  checkpointId: r.checkpoint_id,
  sessionId: r.session_id,
  project: r.project,
  path: r.path,
  kind: r.kind as HandoffKind,
  createdAt: r.created_at,
  pickedUpAt: r.picked_up_at,
  pickedUpBy: r.picked_up_by,
});

export class HandoffRepository implements Handoffs {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  record(handoff: Omit<HandoffRecord, 'id' | 'pickedUpAt' | 'pickedUpBy'>): HandoffRecord {
    const id = randomUUID();
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          `INSERT INTO handoffs (id, checkpoint_id, session_id, project, path, kind, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          handoff.checkpointId,
          handoff.sessionId,
          handoff.project,
          handoff.path,
          handoff.kind,
          handoff.createdAt,
        );
    });
    return { ...handoff, id, pickedUpAt: null, pickedUpBy: null };
  }

  /**
   * The newest handoff for the project that no session has picked up yet, of the kinds a next
   * session inherits (the user's, the one written at a usage limit).
   */
  getPendingForProject(root: string, since: string): HandoffRecord | null {
    const project = matchProject('project', root);
    const row = this.#db
      .prepare(
        `SELECT * FROM handoffs WHERE kind IN (${PICKED_UP_KINDS.map(() => '?').join(', ')})
           AND picked_up_at IS NULL AND created_at >= ?
           AND ${project.sql} ORDER BY created_at DESC LIMIT 1`,
      )
      .get(...PICKED_UP_KINDS, since, ...project.params) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** The session's own usage-limit handoff not picked up yet (for its resume). */
  getPendingLimitHandoff(sessionId: string): HandoffRecord | null {
    const row = this.#db
      .prepare(
        `SELECT * FROM handoffs WHERE kind = 'usage_limit' AND session_id = ?
           AND picked_up_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      )
      .get(sessionId) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /**
   * Marks the handoff picked up by `sessionId`; false when another session took it first (two
   * sessions starting at once must not both inherit it).
   */
  markPickedUp(id: string, sessionId: string, at: string): boolean {
    return withWriteTransaction(this.#db, () => {
      const result = this.#db
        .prepare(
          'UPDATE handoffs SET picked_up_at = ?, picked_up_by = ? WHERE id = ? AND picked_up_at IS NULL',
        )
        .run(at, sessionId, id);
      return Number(result.changes) === 1;
    });
  }

  listForCheckpoint(checkpointId: string): HandoffRecord[] {
    const rows = this.#db
      .prepare('SELECT * FROM handoffs WHERE checkpoint_id = ? ORDER BY created_at')
      .all(checkpointId) as Row[];
    return rows.map(toRecord);
  }
}
