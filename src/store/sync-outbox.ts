/**
 * The tracker sync's outbox (migration 9): what is to reach an issue, written where it was
 * decided and sent later by a worker. An entry is added once per dedupe key; a worker leases
 * the oldest due entry, sends it, and marks it delivered, or due again later with the error;
 * an entry whose worker died is taken over when its lease runs out.
 * @module
 */
import type { IssueRef, IssueSource, Tracker } from '../core/sync/issue-ref.ts';
import { withWriteTransaction, type Database } from './database.ts';

export type OutboxAction = 'comment' | 'label' | 'state' | 'facts';

export type OutboxDraft = {
  dedupeKey: string;
  issue: IssueRef;
  action: OutboxAction;
  /** comment: { body, marker }; label: { name }; state: { name }; facts: {} (read the issue). */
  payload: Record<string, string>;
  sessionId?: string | null;
  checkpointId?: string | null;
};

export type OutboxEntry = OutboxDraft & {
  id: number;
  createdAt: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  deliveredAt: string | null;
  remoteId: string | null;
};

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

export type OutboxCounts = {
  pending: number;
  delivered: number;
  failed: number;
  oldestPending: string | null;
  lastError: string | null;
};

export class SyncOutbox {
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
             AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id LIMIT 1`,
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
      .prepare('SELECT status, COUNT(*) AS n FROM sync_outbox GROUP BY status')
      .all() as Array<{ status: string; n: number }>;
    const n = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    const oldest = this.#db
      .prepare("SELECT MIN(created_at) AS at FROM sync_outbox WHERE status = 'pending'")
      .get() as { at: string | null } | undefined;
    const last = this.#db
      .prepare(
        "SELECT last_error FROM sync_outbox WHERE last_error IS NOT NULL AND status != 'delivered' ORDER BY id DESC LIMIT 1",
      )
      .get() as { last_error: string } | undefined;
    return {
      pending: n('pending'),
      delivered: n('delivered'),
      failed: n('failed'),
      oldestPending: oldest?.at ?? null,
      lastError: last?.last_error ?? null,
    };
  }

  list(limit = 50): OutboxEntry[] {
    return (
      this.#db.prepare('SELECT * FROM sync_outbox ORDER BY id DESC LIMIT ?').all(limit) as Row[]
    ).map(toEntry);
  }
}

/** The issue each session works on (migration 9). */
export class SessionIssues {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get(sessionId: string): { ref: IssueRef; source: IssueSource; updatedAt: string } | null {
    const row = this.#db
      .prepare(
        'SELECT tracker, issue_key, repo, source, updated_at FROM session_issues WHERE session_id = ?',
      )
      .get(sessionId) as
      | {
          tracker: string;
          issue_key: string;
          repo: string | null;
          source: string;
          updated_at: string;
        }
      | undefined;
    if (!row || row.source === 'cleared') return null;
    return {
      ref: {
        tracker: row.tracker as Tracker,
        key: row.issue_key,
        ...(row.repo ? { repo: row.repo } : {}),
      },
      source: row.source as IssueSource,
      updatedAt: row.updated_at,
    };
  }

  set(sessionId: string, ref: IssueRef, source: IssueSource, now: string): void {
    this.#db
      .prepare(
        `INSERT INTO session_issues (session_id, tracker, issue_key, repo, source, updated_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(session_id) DO UPDATE SET tracker = excluded.tracker,
           issue_key = excluded.issue_key, repo = excluded.repo, source = excluded.source,
           updated_at = excluded.updated_at`,
      )
      .run(sessionId, ref.tracker, ref.key, ref.repo ?? null, source, now);
  }

  /** No issue for this session, whatever its branch or requests say (`shim link --clear`). */
  clear(sessionId: string, now: string): void {
    this.#db
      .prepare(
        `INSERT INTO session_issues (session_id, tracker, issue_key, repo, source, updated_at)
         VALUES (?, '', '', NULL, 'cleared', ?) ON CONFLICT(session_id) DO UPDATE SET tracker = '',
           issue_key = '', repo = NULL, source = 'cleared', updated_at = excluded.updated_at`,
      )
      .run(sessionId, now);
  }

  /** Whether `shim link --clear` was said for this session. */
  isCleared(sessionId: string): boolean {
    const row = this.#db
      .prepare('SELECT source FROM session_issues WHERE session_id = ?')
      .get(sessionId) as { source: string } | undefined;
    return row?.source === 'cleared';
  }
}

export type StoredIssueFacts = {
  title: string | null;
  state: string | null;
  url: string | null;
  lastNote: string | null;
  fetchedAt: string;
};

/** What the sync worker last read of each issue (migration 9). */
export class IssueFactsCache {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get(ref: IssueRef): StoredIssueFacts | null {
    const row = this.#db
      .prepare(
        `SELECT title, state, url, last_note, fetched_at FROM issue_facts
         WHERE tracker = ? AND repo = ? AND issue_key = ?`,
      )
      .get(ref.tracker, ref.repo ?? '', ref.key) as
      | {
          title: string | null;
          state: string | null;
          url: string | null;
          last_note: string | null;
          fetched_at: string;
        }
      | undefined;
    return row
      ? {
          title: row.title,
          state: row.state,
          url: row.url,
          lastNote: row.last_note,
          fetchedAt: row.fetched_at,
        }
      : null;
  }

  /** Records what was read; a field left undefined keeps its stored value. */
  put(ref: IssueRef, facts: Partial<Omit<StoredIssueFacts, 'fetchedAt'>>, now: string): void {
    const known = this.get(ref);
    const pick = <K extends keyof StoredIssueFacts>(k: K) =>
      (facts[k as keyof typeof facts] ?? known?.[k] ?? null) as string | null;
    this.#db
      .prepare(
        `INSERT INTO issue_facts (tracker, repo, issue_key, title, state, url, last_note, fetched_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(tracker, repo, issue_key) DO UPDATE SET
           title = excluded.title, state = excluded.state, url = excluded.url,
           last_note = excluded.last_note, fetched_at = excluded.fetched_at`,
      )
      .run(
        ref.tracker,
        ref.repo ?? '',
        ref.key,
        pick('title'),
        pick('state'),
        pick('url'),
        pick('lastNote'),
        now,
      );
  }
}
