/**
 * The issue each session works on (migration 9): linked by `shim link`, else detected; a
 * session or project can also be cleared (nothing synced for it).
 * @module
 */
import type { IssueRef, IssueSource, Tracker } from '../../core/sync/issue-ref.ts';
import type { Database } from '../sqlite/database.ts';
import type { SessionIssueLinks } from '../ports/session-issues.ts';

/** The issue each session works on (migration 9). */
export class SessionIssues implements SessionIssueLinks {
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
