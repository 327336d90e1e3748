/**
 * The team rows' side of the sync outbox (docs/team.md, "Replication"). The worker queues what is
 * new since its marks (`team_marks`, migration 11) into `sync_outbox` as `tracker = 'team'`
 * entries — sessions first, then checkpoints, compaction summaries, handoffs, loop runs and loop
 * events, each in the order it was written — and leases them in batches, oldest first. An entry's
 * `created_at` is its row's own time, so the oldest waiting entry gives the lag. Queueing and
 * moving the marks is one transaction: a worker killed in between queues nothing twice (dedupe
 * keys) and misses nothing (the marks did not move).
 * @module
 */
import type { TeamRowKind } from '../ports/team-repository.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import type { TeamEntry, TeamQueue, TeamQueueStatus } from '../ports/team-queue.ts';

export const TEAM_TRACKER = 'team';

type Sweep = {
  kind: TeamRowKind;
  /** The mark column: rowid (rows never change) or a time (rows that change). */
  mark: 'rowid' | 'time';
  /** id, session_id, at, mark (the value to move the mark to), version (dedupe). */
  select: string;
};

// Rows that change (sessions, loop runs) are queued again for each new version; the rest once.
const SWEEPS: readonly Sweep[] = [
  {
    kind: 'session',
    mark: 'time',
    select: `SELECT session_id AS id, session_id, last_seen_at AS at, last_seen_at AS mark,
      last_seen_at || '|' || COALESCE(ended_at, '') AS version FROM sessions
      WHERE session_id <> 'doctor' AND last_seen_at > ? ORDER BY last_seen_at`,
  },
  {
    kind: 'checkpoint',
    mark: 'rowid',
    select: `SELECT id, session_id, created_at AS at, rowid AS mark, '' AS version FROM checkpoints
      WHERE rowid > ? ORDER BY rowid`,
  },
  {
    kind: 'compaction_summary',
    mark: 'rowid',
    select: `SELECT id, session_id, recorded_at AS at, rowid AS mark, '' AS version
      FROM compaction_summaries WHERE rowid > ? ORDER BY rowid`,
  },
  {
    kind: 'handoff',
    mark: 'rowid',
    select: `SELECT id, session_id, created_at AS at, rowid AS mark, '' AS version FROM handoffs
      WHERE rowid > ? ORDER BY rowid`,
  },
  {
    kind: 'loop_run',
    mark: 'time',
    select: `SELECT run_id AS id, session_id, updated_at AS at, updated_at AS mark,
      updated_at || '|' || status AS version FROM loop_runs WHERE updated_at > ? ORDER BY updated_at`,
  },
  {
    kind: 'loop_event',
    mark: 'rowid',
    select: `SELECT run_id || ':' || seq AS id, NULL AS session_id, at, rowid AS mark, '' AS version
      FROM loop_events WHERE rowid > ? ORDER BY rowid`,
  },
];

type SweptRow = {
  id: string;
  session_id: string | null;
  at: string;
  mark: string | number;
  version: string;
};

export class TeamReplicationQueue implements TeamQueue {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Queues every row written since the marks; returns how many entries were added. */
  sweep(): number {
    const db = this.#db;
    return withWriteTransaction(db, () => {
      const insert = db.prepare(
        `INSERT OR IGNORE INTO sync_outbox (dedupe_key, created_at, tracker, issue_key, action,
           payload, session_id, checkpoint_id, next_attempt_at)
         VALUES (?, ?, '${TEAM_TRACKER}', ?, 'replicate', '{}', ?, ?, ?)`,
      );
      const setMark = db.prepare(
        'INSERT INTO team_marks (kind, mark) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET mark = excluded.mark',
      );
      let added = 0;
      for (const sweep of SWEEPS) {
        const current = (
          db.prepare('SELECT mark FROM team_marks WHERE kind = ?').get(sweep.kind) as
            { mark: string } | undefined
        )?.mark;
        const from = sweep.mark === 'rowid' ? Number(current ?? 0) : (current ?? '');
        const rows = db.prepare(sweep.select).all(from) as SweptRow[];
        if (rows.length === 0) continue;
        for (const r of rows) {
          const key = `team:${sweep.kind}:${r.id}${r.version ? `:${r.version}` : ''}`;
          added += Number(insert.run(key, r.at, sweep.kind, r.session_id, r.id, r.at).changes);
        }
        setMark.run(sweep.kind, String(rows[rows.length - 1]!.mark));
      }
      return added;
    });
  }

  /**
   * Leases up to `limit` of the oldest waiting team entries to `owner` — due or not: it is called
   * once the server answered, and then everything waiting goes (the backoff says only when to try).
   */
  claimBatch(owner: string, now: Date, leaseMs: number, limit: number): TeamEntry[] {
    const at = now.toISOString();
    const db = this.#db;
    return withWriteTransaction(db, () => {
      const rows = db
        .prepare(
          `SELECT id, issue_key, checkpoint_id, session_id, created_at, attempts FROM sync_outbox
           WHERE tracker = '${TEAM_TRACKER}' AND status = 'pending'
             AND (lease_until IS NULL OR lease_until <= ?)
           ORDER BY id LIMIT ?`,
        )
        .all(at, limit) as Array<{
        id: number;
        issue_key: string;
        checkpoint_id: string;
        session_id: string | null;
        created_at: string;
        attempts: number;
      }>;
      const lease = db.prepare(
        'UPDATE sync_outbox SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?',
      );
      const until = new Date(now.getTime() + leaseMs).toISOString();
      for (const r of rows) lease.run(owner, until, r.id);
      return rows.map((r) => ({
        outboxId: Number(r.id),
        kind: r.issue_key as TeamRowKind,
        rowId: r.checkpoint_id,
        sessionId: r.session_id,
        at: r.created_at,
        attempts: Number(r.attempts) + 1,
      }));
    });
  }

  /** Marks the entries sent (only while `owner` still holds them: a lease taken over is not undone). */
  delivered(outboxIds: readonly number[], owner: string, now: string): void {
    const db = this.#db;
    withWriteTransaction(db, () => {
      const done = db.prepare(
        `UPDATE sync_outbox SET status = 'delivered', delivered_at = ?, lease_owner = NULL,
           lease_until = NULL, last_error = NULL WHERE id = ? AND (lease_owner = ? OR lease_owner IS NULL)`,
      );
      for (const id of outboxIds) done.run(now, id, owner);
    });
  }

  /** Leased entries left unsent (the batch was full): free again, the attempt not counted. */
  release(outboxIds: readonly number[]): void {
    if (outboxIds.length === 0) return;
    const db = this.#db;
    withWriteTransaction(db, () => {
      const free = db.prepare(
        `UPDATE sync_outbox SET lease_owner = NULL, lease_until = NULL,
           attempts = MAX(0, attempts - 1) WHERE id = ?`,
      );
      for (const id of outboxIds) free.run(id);
    });
  }

  /** A row the server refuses for good: set aside with the reason, never sent again. */
  setAside(outboxId: number, reason: string): void {
    this.#db
      .prepare(
        `UPDATE sync_outbox SET status = 'failed', last_error = ?, lease_owner = NULL,
           lease_until = NULL WHERE id = ?`,
      )
      .run(`refused by the server: ${reason}`.slice(0, 500), outboxId);
  }

  /** Due again at `retryAt` with the error; team entries are never given up (nothing is lost). */
  deferred(outboxIds: readonly number[], error: string, retryAt: string): void {
    const db = this.#db;
    withWriteTransaction(db, () => {
      const later = db.prepare(
        `UPDATE sync_outbox SET next_attempt_at = ?, last_error = ?, lease_owner = NULL,
           lease_until = NULL WHERE id = ?`,
      );
      for (const id of outboxIds) later.run(retryAt, error.slice(0, 500), id);
    });
  }

  /**
   * What waits, how old the oldest waiting row is, when it is tried next, the newest error, the
   * newest delivery, and the rows set aside (with the newest reason).
   */
  status(): TeamQueueStatus {
    const row = this.#db
      .prepare(
        `SELECT
           SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS waiting,
           SUM(CASE WHEN status = 'delivered' THEN 1 ELSE 0 END) AS delivered,
           SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS set_aside,
           MIN(CASE WHEN status = 'pending' THEN created_at END) AS oldest,
           MIN(CASE WHEN status = 'pending' THEN next_attempt_at END) AS next_attempt,
           MAX(delivered_at) AS last_delivered
         FROM sync_outbox WHERE tracker = '${TEAM_TRACKER}'`,
      )
      .get() as {
      waiting: number | null;
      delivered: number | null;
      set_aside: number | null;
      oldest: string | null;
      next_attempt: string | null;
      last_delivered: string | null;
    };
    const aside = this.#db
      .prepare(
        `SELECT issue_key AS kind, checkpoint_id AS id, last_error FROM sync_outbox
         WHERE tracker = '${TEAM_TRACKER}' AND status = 'failed' ORDER BY id DESC LIMIT 1`,
      )
      .get() as { kind: string; id: string; last_error: string | null } | undefined;
    const error = this.#db
      .prepare(
        `SELECT last_error FROM sync_outbox WHERE tracker = '${TEAM_TRACKER}' AND status = 'pending'
           AND last_error IS NOT NULL ORDER BY next_attempt_at DESC LIMIT 1`,
      )
      .get() as { last_error: string } | undefined;
    return {
      waiting: Number(row.waiting ?? 0),
      delivered: Number(row.delivered ?? 0),
      oldestWaiting: row.oldest,
      nextAttemptAt: row.next_attempt,
      lastError: error?.last_error ?? null,
      lastDelivered: row.last_delivered,
      setAside: Number(row.set_aside ?? 0),
      lastSetAside: aside
        ? `${aside.kind} ${aside.id.slice(0, 8)}: ${aside.last_error ?? 'refused'}`
        : null,
    };
  }

  /** A named mark in team_marks (the worker's daily retention, for one). */
  getMark(kind: string): string | null {
    const row = this.#db.prepare('SELECT mark FROM team_marks WHERE kind = ?').get(kind) as
      { mark: string } | undefined;
    return row?.mark ?? null;
  }

  setMark(kind: string, mark: string): void {
    this.#db
      .prepare(
        'INSERT INTO team_marks (kind, mark) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET mark = excluded.mark',
      )
      .run(kind, mark);
  }

  /** Delivered entries older than `before` are dropped (the rows themselves are on the server). */
  prune(before: string): number {
    return Number(
      this.#db
        .prepare(
          `DELETE FROM sync_outbox WHERE tracker = '${TEAM_TRACKER}' AND status = 'delivered' AND delivered_at < ?`,
        )
        .run(before).changes,
    );
  }
}
