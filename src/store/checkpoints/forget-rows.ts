/**
 * Removing one checkpoint, or a whole session, from the store without a trace: the rows, their
 * search index entries (the FTS trigger of migration 3), the restores and handoffs that point
 * at them. Rows of other checkpoints and sessions that named what goes (a child's parent, a
 * session restored from it, a loop iteration's checkpoint) keep their own data and lose only
 * the link: a child's parent becomes the removed checkpoint's own parent.
 * @module
 */
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import { checkpointWal, mergeFullTextIndex } from '../sqlite/dialect.ts';
import { detachDependents } from './checkpoint-chain.ts';
import type { Forgetting, ForgetTarget, ForgetPlan } from '../ports/forgetting.ts';

const count = (db: Database, sql: string, ...params: string[]): number =>
  (db.prepare(sql).get(...params) as { n: number }).n;

/** What forgetting `target` would remove; null when the store has none of it. */
export function planForget(db: Database, target: ForgetTarget): ForgetPlan | null {
  const checkpoints = (
    target.kind === 'checkpoint'
      ? db.prepare('SELECT id, cwd, snapshot_ref FROM checkpoints WHERE id = ?').all(target.id)
      : db
          .prepare('SELECT id, cwd, snapshot_ref FROM checkpoints WHERE session_id = ?')
          .all(target.id)
  ) as Array<{ id: string; cwd: string | null; snapshot_ref: string | null }>;
  const sessionRows =
    target.kind === 'session'
      ? count(db, 'SELECT COUNT(*) AS n FROM sessions WHERE session_id = ?', target.id)
      : 0;
  if (checkpoints.length === 0 && sessionRows === 0) return null;
  const ids = checkpoints.map((c) => c.id);
  const inIds = `(${ids.map(() => '?').join(', ') || 'NULL'})`;
  const handoffs = (
    target.kind === 'session'
      ? db
          .prepare(`SELECT path FROM handoffs WHERE session_id = ? OR checkpoint_id IN ${inIds}`)
          .all(target.id, ...ids)
      : db.prepare(`SELECT path FROM handoffs WHERE checkpoint_id IN ${inIds}`).all(...ids)
  ) as Array<{ path: string }>;
  const rows: Record<string, number> = {
    checkpoints: ids.length,
    resume_events: count(
      db,
      `SELECT COUNT(*) AS n FROM resume_events WHERE checkpoint_id IN ${inIds}${target.kind === 'session' ? ' OR session_id = ?' : ''}`,
      ...ids,
      ...(target.kind === 'session' ? [target.id] : []),
    ),
    handoffs: handoffs.length,
    compaction_summaries:
      target.kind === 'session'
        ? count(
            db,
            'SELECT COUNT(*) AS n FROM compaction_summaries WHERE session_id = ?',
            target.id,
          )
        : count(
            db,
            `SELECT COUNT(*) AS n FROM compaction_summaries WHERE checkpoint_id IN ${inIds}`,
            ...ids,
          ),
  };
  // Waiting to be sent (the team store, an issue's comment) and the team's pulled copy.
  const bySession = target.kind === 'session' ? ' OR session_id = ?' : '';
  const also = target.kind === 'session' ? [target.id] : [];
  rows.sync_outbox = count(
    db,
    `SELECT COUNT(*) AS n FROM sync_outbox WHERE checkpoint_id IN ${inIds}${bySession}`,
    ...ids,
    ...also,
  );
  rows.team_work = count(
    db,
    `SELECT COUNT(*) AS n FROM team_work WHERE checkpoint_id IN ${inIds}${bySession}`,
    ...ids,
    ...also,
  );
  const restoredInto = (
    db
      .prepare(
        `SELECT session_id FROM sessions WHERE (resumed_from_checkpoint IN ${inIds}${target.kind === 'session' ? ' OR resumed_from_session = ?' : ''}) AND session_id <> ?`,
      )
      .all(...ids, ...also, target.id) as Array<{ session_id: string }>
  ).map((r) => r.session_id);
  if (target.kind === 'session') {
    rows.sessions = sessionRows;
    rows.events = count(db, 'SELECT COUNT(*) AS n FROM events WHERE session_id = ?', target.id);
    rows.signal_history = count(
      db,
      'SELECT COUNT(*) AS n FROM signal_history WHERE session_id = ?',
      target.id,
    );
    rows.session_issues = count(
      db,
      'SELECT COUNT(*) AS n FROM session_issues WHERE session_id = ?',
      target.id,
    );
  }
  return {
    target,
    checkpoints: checkpoints.map((c) => ({ id: c.id, cwd: c.cwd, snapshotRef: c.snapshot_ref })),
    handoffPaths: handoffs.map((h) => h.path),
    rows,
    restoredInto,
  };
}

/** Deletes what the plan names, in one transaction. */
export function forgetRows(db: Database, plan: ForgetPlan): void {
  const ids = plan.checkpoints.map((c) => c.id);
  withWriteTransaction(db, () => {
    // What is kept and stored as a change of a forgotten checkpoint is made whole first.
    detachDependents(db, ids);
    for (const id of ids) {
      db.prepare('DELETE FROM sync_outbox WHERE checkpoint_id = ?').run(id);
      db.prepare('DELETE FROM team_work WHERE checkpoint_id = ?').run(id);
      const parent = db.prepare('SELECT parent_id FROM checkpoints WHERE id = ?').get(id) as
        { parent_id: string | null } | undefined;
      db.prepare('UPDATE checkpoints SET parent_id = ? WHERE parent_id = ?').run(
        parent?.parent_id ?? null,
        id,
      );
      db.prepare(
        'UPDATE sessions SET resumed_from_checkpoint = NULL, resumed_from_session = NULL WHERE resumed_from_checkpoint = ?',
      ).run(id);
      db.prepare('UPDATE loop_iterations SET checkpoint_id = NULL WHERE checkpoint_id = ?').run(id);
      db.prepare('DELETE FROM resume_events WHERE checkpoint_id = ?').run(id);
      db.prepare('DELETE FROM handoffs WHERE checkpoint_id = ?').run(id);
      db.prepare('DELETE FROM compaction_summaries WHERE checkpoint_id = ?').run(id);
      // The search index rows go with it (trigger checkpoint_search_forget).
      db.prepare('DELETE FROM checkpoints WHERE id = ?').run(id);
    }
    if (plan.target.kind === 'session') {
      const session = plan.target.id;
      for (const table of [
        'resume_events',
        'handoffs',
        'compaction_summaries',
        'events',
        'signal_history',
        'session_issues',
        'sync_outbox',
        'team_work',
      ])
        db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(session);
      db.prepare('DELETE FROM sessions WHERE session_id = ?').run(session);
      // What it learned is a secret stays learned (hashes, no value: they keep the copies other
      // sessions hold redacted), named by no session any more.
      db.prepare("UPDATE learned_secrets SET session_id = '' WHERE session_id = ?").run(session);
      db.prepare(
        'UPDATE sessions SET resumed_from_session = NULL, resumed_from_checkpoint = NULL WHERE resumed_from_session = ?',
      ).run(session);
    }
  });
}

/** Forgetting as a repository over one open database (app/retention/forget.ts). */
export class ForgetRows implements Forgetting {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  plan(target: ForgetTarget): ForgetPlan | null {
    return planForget(this.#db, target);
  }

  /**
   * Deletes the rows; then no byte of them is left in the file: the search index's segments are
   * merged (a deleted entry otherwise stays in an old segment), what that frees is zeroed (every
   * connection writes with `secure_delete`, sqlite/dialect.ts) and the log is emptied.
   */
  forget(plan: ForgetPlan): void {
    forgetRows(this.#db, plan);
    mergeFullTextIndex(this.#db, 'checkpoint_search');
    checkpointWal(this.#db);
  }

  /** The transcripts a session's rows name (its own, and those its checkpoints were taken from). */
  transcriptPaths(sessionId: string): string[] {
    return (
      this.#db
        .prepare(
          'SELECT transcript_path AS p FROM sessions WHERE session_id = ? UNION SELECT transcript_path FROM checkpoints WHERE session_id = ?',
        )
        .all(sessionId, sessionId) as Array<{ p: string | null }>
    ).flatMap((r) => (r.p ? [r.p] : []));
  }
}
