/** compaction_summaries: what Claude Code's own summary said at each compaction (PostCompact). */
import { randomUUID } from 'node:crypto';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import type { CompactionSummaries, CompactionSummary } from '../ports/compaction-summaries.ts';

/** Summaries are clipped: the comparison needs their words, not megabytes. */
export const MAX_SUMMARY_CHARS = 40_000;

/** Two reports of a summary this close together are of one compaction (a summary takes a model call). */
const SAME_COMPACTION_MS = 60_000;

export class CompactionSummaryRepository implements CompactionSummaries {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  save(entry: Omit<CompactionSummary, 'id'>): CompactionSummary {
    const id = randomUUID();
    const summary = entry.summary.slice(0, MAX_SUMMARY_CHARS);
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          `INSERT INTO compaction_summaries (id, session_id, recorded_at, trigger, summary, checkpoint_id)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(id, entry.sessionId, entry.recordedAt, entry.trigger, summary, entry.checkpointId);
    });
    return { ...entry, summary, id };
  }

  /**
   * Saves unless the session already has a summary from the same compaction (recorded within
   * SAME_COMPACTION_MS): the PostCompact hook and shim's mod both report one.
   */
  saveOnce(entry: Omit<CompactionSummary, 'id'>): boolean {
    const since = new Date(Date.parse(entry.recordedAt) - SAME_COMPACTION_MS).toISOString();
    if (this.getLatest(entry.sessionId, since)) return false;
    this.save(entry);
    return true;
  }

  /** The newest summary of the session recorded at or after `since` (ISO). */
  getLatest(sessionId: string, since: string): CompactionSummary | null {
    const row = this.#db
      .prepare(
        `SELECT * FROM compaction_summaries WHERE session_id = ? AND recorded_at >= ?
         ORDER BY recorded_at DESC LIMIT 1`,
      )
      .get(sessionId, since) as Record<string, unknown> | undefined;
    return row ? toSummary(row) : null;
  }

  /** Every summary of the session kept with the checkpoint taken before it, oldest first. */
  listWithCheckpoint(sessionId: string): CompactionSummary[] {
    return (
      this.#db
        .prepare(
          `SELECT * FROM compaction_summaries WHERE session_id = ? AND checkpoint_id IS NOT NULL
           ORDER BY recorded_at`,
        )
        .all(sessionId) as Array<Record<string, unknown>>
    ).map(toSummary);
  }

  count(sessionIds?: readonly string[]): number {
    if (sessionIds && sessionIds.length === 0) return 0;
    const where = sessionIds ? `WHERE session_id IN (${sessionIds.map(() => '?').join(',')})` : '';
    const row = this.#db
      .prepare(`SELECT COUNT(*) AS n FROM compaction_summaries ${where}`)
      .get(...(sessionIds ?? [])) as { n: number };
    return Number(row.n);
  }

  deleteOlderThan(cutoff: string): number {
    return Number(
      this.#db.prepare('DELETE FROM compaction_summaries WHERE recorded_at < ?').run(cutoff)
        .changes,
    );
  }
}

function toSummary(r: Record<string, unknown>): CompactionSummary {
  return {
    id: String(r.id),
    sessionId: String(r.session_id),
    recordedAt: String(r.recorded_at),
    trigger: String(r.trigger),
    summary: String(r.summary),
    checkpointId: (r.checkpoint_id as string | null) ?? null,
  };
}
