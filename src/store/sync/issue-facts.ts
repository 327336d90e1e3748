/**
 * What the sync worker last read of each issue (migration 9), for handoffs written in hooks.
 * @module
 */
import type { IssueRef } from '../../core/sync/issue-ref.ts';
import type { Database } from '../sqlite/database.ts';
import type { CachedIssueFacts, StoredIssueFacts } from '../ports/issue-facts.ts';

/** What the sync worker last read of each issue (migration 9). */
export class IssueFactsCache implements CachedIssueFacts {
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
