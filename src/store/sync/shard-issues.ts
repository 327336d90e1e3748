/**
 * The sub-issue `shim shard --issues` made for each shard file (migration 9).
 * @module
 */
import type { IssueRef, Tracker } from '../../core/sync/issue-ref.ts';
import type { Database } from '../sqlite/database.ts';
import type { ShardIssueLinks, ShardIssue } from '../ports/shard-issues.ts';

/** The sub-issue made for each shard file (migration 9). */
export class ShardIssues implements ShardIssueLinks {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get(shardFile: string): ShardIssue | null {
    const row = this.#db
      .prepare('SELECT * FROM shard_issues WHERE shard_file = ?')
      .get(shardFile) as
      | {
          shard_file: string;
          tracker: string;
          repo: string | null;
          issue_key: string;
          parent_key: string;
          created_at: string;
          done_at: string | null;
        }
      | undefined;
    if (!row) return null;
    return {
      shardFile: row.shard_file,
      issue: {
        tracker: row.tracker as Tracker,
        key: row.issue_key,
        ...(row.repo ? { repo: row.repo } : {}),
      },
      parentKey: row.parent_key,
      createdAt: row.created_at,
      doneAt: row.done_at,
    };
  }

  record(shardFile: string, issue: IssueRef, parentKey: string, now: string): void {
    this.#db
      .prepare(
        `INSERT INTO shard_issues (shard_file, tracker, repo, issue_key, parent_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(shard_file) DO UPDATE SET tracker = excluded.tracker,
           repo = excluded.repo, issue_key = excluded.issue_key, parent_key = excluded.parent_key,
           created_at = excluded.created_at, done_at = NULL`,
      )
      .run(shardFile, issue.tracker, issue.repo ?? null, issue.key, parentKey, now);
  }

  markDone(shardFile: string, now: string): void {
    this.#db
      .prepare('UPDATE shard_issues SET done_at = ? WHERE shard_file = ?')
      .run(now, shardFile);
  }
}
