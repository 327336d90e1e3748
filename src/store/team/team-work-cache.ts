/**
 * The local copy of the team's newest unfinished work per project (migration 11): written by the
 * replication worker after each pull, read by the SessionStart hook, which opens no connection.
 * A row is taken once: the session that restored it marks it, and a newer pull replaces it.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { Database } from '../sqlite/database.ts';
import type { TeamWorkCopies, TeamWorkReason, TeamWork } from '../ports/team-work.ts';

type Row = {
  project_id: string;
  checkpoint_id: string;
  session_id: string;
  machine: string;
  os_user: string;
  created_at: string;
  reason: string;
  handoff_id: string | null;
  checkpoint: string;
  pulled_at: string;
  taken_at: string | null;
};

const toWork = (r: Row): TeamWork => ({
  projectId: r.project_id,
  checkpoint: JSON.parse(r.checkpoint) as Checkpoint,
  sessionId: r.session_id,
  machine: r.machine,
  osUser: r.os_user,
  createdAt: r.created_at,
  reason: r.reason as TeamWorkReason,
  handoffId: r.handoff_id,
  pulledAt: r.pulled_at,
  takenAt: r.taken_at,
});

export class TeamWorkCache implements TeamWorkCopies {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Keeps `work` as the project's newest; the same checkpoint again keeps its taken mark. */
  put(work: Omit<TeamWork, 'takenAt'>): void {
    this.#db
      .prepare(
        `INSERT INTO team_work (project_id, checkpoint_id, session_id, machine, os_user, created_at,
           reason, handoff_id, checkpoint, pulled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (project_id) DO UPDATE SET
           taken_at = CASE WHEN team_work.checkpoint_id = excluded.checkpoint_id THEN team_work.taken_at END,
           taken_by = CASE WHEN team_work.checkpoint_id = excluded.checkpoint_id THEN team_work.taken_by END,
           checkpoint_id = excluded.checkpoint_id, session_id = excluded.session_id,
           machine = excluded.machine, os_user = excluded.os_user, created_at = excluded.created_at,
           reason = excluded.reason, handoff_id = excluded.handoff_id, checkpoint = excluded.checkpoint, pulled_at = excluded.pulled_at
         WHERE excluded.created_at >= team_work.created_at`,
      )
      .run(
        work.projectId,
        work.checkpoint.id,
        work.sessionId,
        work.machine,
        work.osUser,
        work.createdAt,
        work.reason,
        work.handoffId ?? null,
        JSON.stringify(work.checkpoint),
        work.pulledAt,
      );
  }

  /** Replaces the body kept of `checkpoint` (the same id), taken or not (a redacted version). */
  replaceCheckpoint(checkpoint: Checkpoint): void {
    this.#db
      .prepare('UPDATE team_work SET checkpoint = ? WHERE checkpoint_id = ?')
      .run(JSON.stringify(checkpoint), checkpoint.id);
  }

  /** The project's newest unfinished team work not taken yet. */
  getUntaken(projectId: string): TeamWork | null {
    const row = this.#db
      .prepare('SELECT * FROM team_work WHERE project_id = ? AND taken_at IS NULL')
      .get(projectId) as Row | undefined;
    return row ? toWork(row) : null;
  }

  /** Marks it taken by `sessionId`; false when another session took it first. */
  take(projectId: string, checkpointId: string, sessionId: string, at: string): boolean {
    const result = this.#db
      .prepare(
        `UPDATE team_work SET taken_at = ?, taken_by = ?
         WHERE project_id = ? AND checkpoint_id = ? AND taken_at IS NULL`,
      )
      .run(at, sessionId, projectId, checkpointId);
    return Number(result.changes) === 1;
  }

  /** Team handoffs taken here: the worker marks them picked up on the server. */
  listTakenHandoffs(): Array<{ handoffId: string; takenBy: string; takenAt: string }> {
    return (
      this.#db
        .prepare(
          'SELECT handoff_id, taken_by, taken_at FROM team_work WHERE handoff_id IS NOT NULL AND taken_at IS NOT NULL',
        )
        .all() as Array<{ handoff_id: string; taken_by: string; taken_at: string }>
    ).map((r) => ({ handoffId: r.handoff_id, takenBy: r.taken_by, takenAt: r.taken_at }));
  }

  list(): TeamWork[] {
    return (
      this.#db.prepare('SELECT * FROM team_work ORDER BY created_at DESC').all() as Row[]
    ).map(toWork);
  }
}
