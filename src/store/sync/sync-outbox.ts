/**
 * The tracker sync's outbox (migration 9): what is to reach an issue, written where it was
 * decided and sent later by a worker. An entry is added once per dedupe key; a worker leases
 * the oldest due entry, sends it, and marks it delivered, or due again later with the error;
 * an entry whose worker died is taken over when its lease runs out.
 * @module
 */
import type { Tracker } from '../../core/sync/issue-ref.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import type {
  Outbox,
  OutboxAction,
  OutboxDraft,
  OutboxEntry,
  OutboxCounts,
} from '../ports/outbox.ts';

type Row = {
  id: number;
  dedupe_key: string;
  created_at: string;
  tracker: string;
  issue_key: string;
  repo: string | null;
  action: string;
  payload: string;
  session_id: string | null;
  checkpoint_id: string | null;
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  delivered_at: string | null;
  remote_id: string | null;
};

const toEntry = (r: Row): OutboxEntry => ({
  id: Number(r.id),
  dedupeKey: r.dedupe_key,
  createdAt: r.created_at,
  issue: {
    tracker: r.tracker as Tracker,
    key: r.issue_key,
    ...(r.repo ? { repo: r.repo } : {}),
  },
  action: r.action as OutboxAction,
  payload: JSON.parse(r.payload) as Record<string, string>,
  sessionId: r.session_id,
  checkpointId: r.checkpoint_id,
  status: r.status as OutboxEntry['status'],
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error,
  deliveredAt: r.delivered_at,
  remoteId: r.remote_id,
});

export class SyncOutbox implements Outbox {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Adds the drafts not added before (by dedupe key); returns how many were new. */
  enqueue(drafts: readonly OutboxDraft[], now: string): number {
    return withWriteTransaction(this.#db, () => {
      const insert = this.#db.prepare(
        `INSERT OR IGNORE INTO sync_outbox (dedupe_key, created_at, tracker, issue_key, repo, action,
           payload, session_id, checkpoint_id, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      let added = 0;
      for (const d of drafts) {
        const result = insert.run(
          d.dedupeKey,
          now,
          d.issue.tracker,
          d.issue.key,
          d.issue.repo ?? null,
          d.action,
          JSON.stringify(d.payload),
          d.sessionId ?? null,
          d.checkpointId ?? null,
          now,
        );
        added += Number(result.changes);
      }
      return added;
    });
  }

  /** Leases the oldest entry due at `now` to `owner` for `leaseMs`; null when none is due. */
  claim(owner: string, now: Date, leaseMs: number): OutboxEntry | null {
    const at = now.toISOString();
    return withWriteTransaction(this.#db, () => {
      const row = this.#db
        .prepare(
          `SELECT * FROM sync_outbox WHERE status = 'pending' AND next_attempt_at <= ?
             AND (lease_until IS NULL OR lease_until <= ?) AND tracker <> 'team' ORDER BY id LIMIT 1`,
        )
        .get(at, at) as Row | undefined;
      if (!row) return null;
      this.#db
        .prepare(
          'UPDATE sync_outbox SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?',
        )
        .run(owner, new Date(now.getTime() + leaseMs).toISOString(), row.id);
      return toEntry({ ...row, attempts: Number(row.attempts) + 1 });
    });
  }

  delivered(id: number, remoteId: string | null, now: string): void {
    this.#db
      .prepare(
        `UPDATE sync_outbox SET status = 'delivered', delivered_at = ?, remote_id = ?, lease_owner = NULL,
           lease_until = NULL, last_error = NULL WHERE id = ?`,
      )
      .run(now, remoteId, id);
  }

  /** Due again at `retryAt`; `failed` for good when `giveUp`. */
  deferred(id: number, error: string, retryAt: string, giveUp: boolean): void {
    this.#db
      .prepare(
        `UPDATE sync_outbox SET status = ?, next_attempt_at = ?, last_error = ?, lease_owner = NULL,
           lease_until = NULL WHERE id = ?`,
      )
      .run(giveUp ? 'failed' : 'pending', retryAt, error.slice(0, 500), id);
  }

  /** Not sent, and never will be: it waited past its moment. */
  stale(id: number, why: string): void {
    this.#db
      .prepare(
        `UPDATE sync_outbox SET status = 'stale', last_error = ?, lease_owner = NULL,
           lease_until = NULL WHERE id = ?`,
      )
      .run(why.slice(0, 500), id);
  }

  /**
   * Entries put off for want of a token (their error starts with `why`) due now, their error
   * cleared: the token is there now. Returns how many.
   */
  wakeWaiting(tracker: Tracker, why: string, now: string): number {
    return Number(
      this.#db
        .prepare(
          `UPDATE sync_outbox SET next_attempt_at = ?, last_error = NULL
           WHERE status = 'pending' AND tracker = ? AND substr(last_error, 1, ?) = ?`,
        )
        .run(now, tracker, why.length, why).changes,
    );
  }

  /** The trackers with entries put off for want of a token (errors starting with one of `whys`). */
  trackersWaiting(whys: readonly string[]): Tracker[] {
    const rows = this.#db
      .prepare(
        "SELECT DISTINCT tracker, last_error FROM sync_outbox WHERE status = 'pending' AND last_error IS NOT NULL",
      )
      .all() as Array<{ tracker: string; last_error: string }>;
    return [
      ...new Set(
        rows.filter((r) => whys.some((w) => r.last_error.startsWith(w))).map((r) => r.tracker),
      ),
    ] as Tracker[];
  }

  /** The earliest time an entry becomes due (pending and not leased beyond it); null when none. */
  nextDue(): string | null {
    const row = this.#db
      .prepare(
        `SELECT MIN(MAX(next_attempt_at, COALESCE(lease_until, ''))) AS at FROM sync_outbox
         WHERE status = 'pending'`,
      )
      .get() as { at: string | null } | undefined;
    return row?.at ?? null;
  }

  counts(): OutboxCounts {
    const rows = this.#db
      .prepare(
        "SELECT status, COUNT(*) AS n FROM sync_outbox WHERE tracker <> 'team' GROUP BY status",
      )
      .all() as Array<{ status: string; n: number }>;
    const n = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    const oldest = this.#db
      .prepare(
        "SELECT MIN(created_at) AS at FROM sync_outbox WHERE status = 'pending' AND tracker <> 'team'",
      )
      .get() as { at: string | null } | undefined;
    const last = this.#db
      .prepare(
        "SELECT last_error FROM sync_outbox WHERE last_error IS NOT NULL AND status IN ('pending', 'failed') AND tracker <> 'team' ORDER BY id DESC LIMIT 1",
      )
      .get() as { last_error: string } | undefined;
    return {
      pending: n('pending'),
      delivered: n('delivered'),
      failed: n('failed'),
      stale: n('stale'),
      oldestPending: oldest?.at ?? null,
      lastError: last?.last_error ?? null,
    };
  }

  list(limit = 50): OutboxEntry[] {
    return (
      this.#db
        .prepare("SELECT * FROM sync_outbox WHERE tracker <> 'team' ORDER BY id DESC LIMIT ?")
        .all(limit) as Row[]
    ).map(toEntry);
  }
}
