/**
 * signal_history: the session's signals and crash risk, sampled at each checkpoint and kept
 * bounded (the newest MAX_PER_SESSION per session), for stats and for learning how sessions grow.
 */
import { randomUUID } from 'node:crypto';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import type { SignalHistory, SignalSample } from '../ports/signal-history.ts';

export const MAX_PER_SESSION = 200;

export class SignalHistoryRepository implements SignalHistory {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  record(sample: SignalSample): void {
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          'INSERT INTO signal_history (id, session_id, recorded_at, signals, crash_risk) VALUES (?, ?, ?, ?, ?)',
        )
        .run(
          randomUUID(),
          sample.sessionId,
          sample.recordedAt,
          JSON.stringify(sample.signals),
          sample.crashRisk,
        );
      this.#db
        .prepare(
          `DELETE FROM signal_history WHERE session_id = ? AND id NOT IN (
             SELECT id FROM signal_history WHERE session_id = ? ORDER BY recorded_at DESC LIMIT ?)`,
        )
        .run(sample.sessionId, sample.sessionId, MAX_PER_SESSION);
    });
  }

  countBySession(sessionId: string): number {
    const row = this.#db
      .prepare('SELECT COUNT(*) AS n FROM signal_history WHERE session_id = ?')
      .get(sessionId) as { n: number };
    return Number(row.n);
  }

  /** crash_risk → samples, over the given sessions (all when omitted). */
  countByRisk(sessionIds?: readonly string[]): Record<string, number> {
    if (sessionIds && sessionIds.length === 0) return {};
    const where = sessionIds ? `WHERE session_id IN (${sessionIds.map(() => '?').join(',')})` : '';
    const rows = this.#db
      .prepare(`SELECT crash_risk, COUNT(*) AS n FROM signal_history ${where} GROUP BY crash_risk`)
      .all(...(sessionIds ?? [])) as Array<{ crash_risk: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.crash_risk, Number(r.n)]));
  }
}
