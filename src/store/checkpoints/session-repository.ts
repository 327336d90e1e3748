/** What the store knows about sessions: when they were seen, and whether they ended cleanly. */
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import { matchProject } from '../sqlite/project-match.ts';
import type { AgentId } from '../../core/agent-id.ts';
import type { SessionRecord, Sessions, SessionSighting } from '../ports/sessions.ts';

type Row = {
  session_id: string;
  transcript_path: string | null;
  cwd: string | null;
  started_at: string;
  last_seen_at: string;
  ended_at: string | null;
  end_reason: string | null;
  cli_version: string | null;
  model: string | null;
  agent: string;
  resumed_from_session?: string | null;
  resumed_from_checkpoint?: string | null;
};

const toRecord = (r: Row): SessionRecord => ({
  sessionId: r.session_id,
  transcriptPath: r.transcript_path,
  cwd: r.cwd,
  startedAt: r.started_at,
  lastSeenAt: r.last_seen_at,
  endedAt: r.ended_at,
  endReason: r.end_reason,
  cliVersion: r.cli_version,
  model: r.model,
  agent: r.agent,
  ...(r.resumed_from_session && r.resumed_from_checkpoint
    ? {
        resumedFrom: {
          sessionId: r.resumed_from_session,
          checkpointId: r.resumed_from_checkpoint,
        },
      }
    : {}),
});

export class SessionRepository implements Sessions {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Records that a session was seen (creating it on first sight); keeps known fields. */
  touch(session: SessionSighting, at: string): void {
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          `INSERT INTO sessions (session_id, transcript_path, cwd, started_at, last_seen_at, cli_version, model, agent)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(session_id) DO UPDATE SET
             last_seen_at = MAX(last_seen_at, excluded.last_seen_at),
             transcript_path = COALESCE(excluded.transcript_path, transcript_path),
             cwd = COALESCE(excluded.cwd, cwd),
             cli_version = COALESCE(excluded.cli_version, cli_version),
             model = COALESCE(excluded.model, model),
             agent = excluded.agent`,
        )
        .run(
          session.sessionId,
          session.transcriptPath ?? null,
          session.cwd ?? null,
          at,
          at,
          session.cliVersion ?? null,
          session.model ?? null,
          session.agent,
        );
    });
  }

  /** Records a clean end (the agent's SessionEnd reason) of `agent`'s session. */
  end(sessionId: string, agent: AgentId, reason: string, at: string): void {
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          `INSERT INTO sessions (session_id, started_at, last_seen_at, ended_at, end_reason, agent) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT(session_id) DO UPDATE SET ended_at = excluded.ended_at, end_reason = excluded.end_reason, last_seen_at = excluded.last_seen_at`,
        )
        .run(sessionId, at, at, at, reason, agent);
    });
  }

  /** The session runs again (`--continue`, `--resume`): an earlier clean end no longer holds. */
  reopen(sessionId: string): void {
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare('UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE session_id = ?')
        .run(sessionId);
    });
  }

  /** Records that `sessionId` was restored from a checkpoint of an earlier session. */
  setResumedFrom(
    sessionId: string,
    from: { sessionId: string; checkpointId: string },
    at: string,
  ): void {
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          `INSERT INTO sessions (session_id, started_at, last_seen_at, resumed_from_session, resumed_from_checkpoint)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(session_id) DO UPDATE SET
             resumed_from_session = excluded.resumed_from_session,
             resumed_from_checkpoint = excluded.resumed_from_checkpoint`,
        )
        .run(sessionId, at, at, from.sessionId, from.checkpointId);
    });
  }

  /** The session seen most recently in the project at `root`, other than `excludeSession`. */
  getLatestInProject(root: string, excludeSession?: string): SessionRecord | null {
    const project = matchProject('cwd', root);
    const row = this.#db
      .prepare(
        `SELECT * FROM sessions WHERE ${project.sql}${excludeSession !== undefined ? ' AND session_id <> ?' : ''}
         ORDER BY last_seen_at DESC, started_at DESC LIMIT 1`,
      )
      .get(...project.params, ...(excludeSession !== undefined ? [excludeSession] : [])) as
      Row | undefined;
    return row ? toRecord(row) : null;
  }

  get(sessionId: string): SessionRecord | null {
    const row = this.#db.prepare('SELECT * FROM sessions WHERE session_id = ?').get(sessionId) as
      Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Every session, newest activity first (the dashboard's list). */
  list(): SessionRecord[] {
    const rows = this.#db
      .prepare('SELECT * FROM sessions ORDER BY last_seen_at DESC')
      .all() as Row[];
    return rows.map(toRecord);
  }
}
