/**
 * `shim stats`: how shim has done for the user — per session and overall, checkpoints by
 * trigger, restores and whether the restored session went on working, and at compactions how
 * much of the session shim's restore carried beside Claude Code's own summary.
 * @module
 */
import { overallShare, scoreCarried } from '../core/resume/carried-items.ts';
import type { SessionStatsRow } from '../store/ports/stats.ts';
import type { Store } from './open-store.ts';
import type { Scope } from './project-scope.ts';

/** The sessions' counts added up (fidelities: means weighted by the sessions' restores). */
export type StatsTotals = Omit<SessionStatsRow, 'sessionId' | 'agent' | 'cwd' | 'lastSeenAt'> & {
  sessions: number;
  /** Sessions per agent (`claude`, `codex`, `gemini`). */
  sessionsByAgent: Record<string, number>;
  checkpoints: number;
};

export type Stats = { scope: Scope; totals: StatsTotals; sessions: SessionStatsRow[] };

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

/** Mean of the sessions' means, weighted by their restores (or by `weigh`). */
function weightedMean(
  rows: readonly SessionStatsRow[],
  pick: (r: SessionStatsRow) => number | null,
  weigh: (r: SessionStatsRow) => number = (r) => r.restores,
) {
  let sum = 0;
  let weight = 0;
  for (const row of rows) {
    const value = pick(row);
    if (value === null) continue;
    sum += value * weigh(row);
    weight += weigh(row);
  }
  return weight === 0 ? null : sum / weight;
}

/**
 * Claude Code's summaries scored against the checkpoint taken before each, as the dashboard
 * scores them: a summary kept after the restore was recorded (PostCompact may come after
 * SessionStart) is scored too, so `stats` never shows "–" where the dashboard shows 0/9.
 */
function summaryFidelity(store: Store, sessionId: string): number | null {
  const shares: number[] = [];
  for (const kept of store.compactionSummaries.listWithCheckpoint(sessionId)) {
    const checkpoint = store.checkpoints.getById(kept.checkpointId!);
    const share = checkpoint ? overallShare(scoreCarried(checkpoint, kept.summary)) : null;
    if (share !== null) shares.push(share);
  }
  return shares.length === 0 ? null : shares.reduce((a, b) => a + b, 0) / shares.length;
}

export function collectStats(store: Store, scope: Scope, limit: number): Stats {
  const sessions = store.stats
    .listSessions(scope.kind === 'project' ? scope.root : null, limit)
    .map((row) =>
      row.claudeSummaryFidelity === null && row.compactionSummaries > 0
        ? { ...row, claudeSummaryFidelity: summaryFidelity(store, row.sessionId) }
        : row,
    );
  const byTrigger: Record<string, number> = {};
  const signals: Record<string, number> = {};
  const byAgent: Record<string, number> = {};
  for (const s of sessions) {
    add(byTrigger, s.checkpointsByTrigger);
    add(signals, s.signalSamples);
    add(byAgent, { [s.agent]: 1 });
  }
  const sum = (pick: (r: SessionStatsRow) => number) => sessions.reduce((n, r) => n + pick(r), 0);
  return {
    scope,
    sessions,
    totals: {
      sessions: sessions.length,
      sessionsByAgent: byAgent,
      checkpoints: Object.values(byTrigger).reduce((a, b) => a + b, 0),
      checkpointsByTrigger: byTrigger,
      restores: sum((r) => r.restores),
      restoresSucceeded: sum((r) => r.restoresSucceeded),
      restoresFailed: sum((r) => r.restoresFailed),
      restoreFidelity: weightedMean(sessions, (r) => r.restoreFidelity),
      claudeSummaryFidelity: weightedMean(
        sessions,
        (r) => r.claudeSummaryFidelity,
        (r) => Math.max(r.restores, r.compactionSummaries),
      ),
      compactionSummaries: sum((r) => r.compactionSummaries),
      signalSamples: signals,
    },
  };
}
