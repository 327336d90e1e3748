/**
 * What the sessions of this home learned are secrets: the lines of their memories
 * (redact/secret-memory.ts — a rule, a length and two hashes; no raw value), one row each.
 *
 * A session's memory lives with its cached state and reaches its own rows and those restored
 * from it. Kept here too, it reaches what no one session holds: a checkpoint sealed while another
 * process learned a value it inherited (the write checks for rows added since it read them, in
 * its own transaction), and a restore printed from a copy stored before the value was known.
 * @module
 */
import type { Database } from '../sqlite/database.ts';
import type { Learned, LearnedLines } from '../ports/learned-secrets.ts';

/**
 * Lines kept at most: the newest. Every checkpoint and every restore a hook prints reads them all
 * (≈ 30 bytes each), and a home learns a few values a week: the bound is for a home that never
 * stops learning (a bench, a script pasting keys), not for its ordinary use.
 */
export const LEARNED_KEPT = 10_000;

export class LearnedSecrets implements Learned {
  readonly #db: Database;
  readonly #kept: number;

  constructor(db: Database, options: { kept?: number } = {}) {
    this.#db = db;
    this.#kept = options.kept ?? LEARNED_KEPT;
  }

  /**
   * Keeps `lines` (a memory's saved lines) that are not kept yet, and drops the oldest beyond
   * {@link LEARNED_KEPT}; returns how many were new.
   */
  add(sessionId: string, lines: readonly string[], at: string): number {
    if (lines.length === 0) return 0;
    const insert = this.#db.prepare(
      'INSERT OR IGNORE INTO learned_secrets (entry, session_id, learned_at) VALUES (?, ?, ?)',
    );
    let added = 0;
    for (const line of lines) added += Number(insert.run(line, sessionId, at).changes);
    if (added > 0)
      this.#db
        .prepare(
          'DELETE FROM learned_secrets WHERE id <= (SELECT id FROM learned_secrets ORDER BY id DESC LIMIT 1 OFFSET ?)',
        )
        .run(this.#kept);
    return added;
  }

  /** The row id of the newest line (0 when none): what `since` asks from. */
  last(): number {
    const row = this.#db.prepare('SELECT MAX(id) AS id FROM learned_secrets').get() as {
      id: number | null;
    };
    return Number(row.id ?? 0);
  }

  /** Every line kept. */
  all(): LearnedLines {
    return this.since(0);
  }

  /** The lines kept after row `last` (an earlier answer's `last`). */
  since(last: number): LearnedLines {
    const rows = this.#db
      .prepare('SELECT id, entry FROM learned_secrets WHERE id > ? ORDER BY id')
      .all(last) as Array<{ id: number; entry: string }>;
    return {
      lines: rows.map((r) => r.entry),
      last: rows.length > 0 ? Number(rows[rows.length - 1]!.id) : last,
    };
  }
}
