/**
 * The counts `shim stats` reports, per session and in a project (or everywhere): checkpoints by
 * trigger, restores with their outcome and fidelity, Claude Code's compaction summaries, signal
 * samples by risk. Read-only SQL beside the tables it reads.
 * @module
 */
import type { Database } from '../sqlite/database.ts';
import { matchProject } from '../sqlite/project-match.ts';
import type { SessionStats, SessionStatsRow } from '../ports/stats.ts';

type Row = Record<string, unknown>;

/** The sessions with checkpoints in the project at `root` (every session when null), newest first. */
export function listSessionStats(
  db: Database,
  root: string | null,
  limit: number,
): SessionStatsRow[] {
  const scope =
    root === null ? { sql: '1 = 1', params: [] as string[] } : matchProject('cwd', root);
  const sessions = db
    .prepare(
      `SELECT session_id, MAX(agent) AS agent, MAX(cwd) AS cwd, MAX(created_at) AS last FROM checkpoints
       WHERE ${scope.sql} GROUP BY session_id ORDER BY last DESC LIMIT ?`,
    )
    .all(...scope.params, limit) as Row[];
  const byTrigger = db.prepare(
    'SELECT triggered_by, COUNT(*) AS n FROM checkpoints WHERE session_id = ? GROUP BY triggered_by',
  );
  const restores = db.prepare(
    `SELECT COUNT(*) AS n, SUM(success = 1) AS ok, SUM(success = 0) AS failed,
            AVG(fidelity_score) AS fidelity, AVG(claude_fidelity_score) AS claude
     FROM resume_events WHERE session_id = ?`,
  );
  const summaries = db.prepare(
    'SELECT COUNT(*) AS n FROM compaction_summaries WHERE session_id = ?',
  );
  const signals = db.prepare(
    'SELECT crash_risk, COUNT(*) AS n FROM signal_history WHERE session_id = ? GROUP BY crash_risk',
  );
  return sessions.map((s) => {
    const id = String(s.session_id);
    const r = restores.get(id) as Row;
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return {
      sessionId: id,
      agent: String(s.agent),
      cwd: (s.cwd as string | null) ?? null,
      lastSeenAt: (s.last as string | null) ?? null,
      checkpointsByTrigger: Object.fromEntries(
        (byTrigger.all(id) as Row[]).map((t) => [String(t.triggered_by), Number(t.n)]),
      ),
      restores: Number(r.n),
      restoresSucceeded: Number(r.ok ?? 0),
      restoresFailed: Number(r.failed ?? 0),
      restoreFidelity: num(r.fidelity),
      claudeSummaryFidelity: num(r.claude),
      compactionSummaries: Number((summaries.get(id) as Row).n),
      signalSamples: Object.fromEntries(
        (signals.all(id) as Row[]).map((t) => [String(t.crash_risk), Number(t.n)]),
      ),
    };
  });
}

/** `shim stats`'s reads as a repository over one open database. */
export class StatsQueries implements SessionStats {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  listSessions(root: string | null, limit: number): SessionStatsRow[] {
    return listSessionStats(this.#db, root, limit);
  }
}
