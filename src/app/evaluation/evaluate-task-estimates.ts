/**
 * How good the task estimates are on real sessions, leave-one-out (issue 15): each session's
 * task points estimated by a model learned from the other sessions only, beside the baseline
 * "historical median per open task × open tasks" learned from the same others. Transcripts of
 * one session (a session id seen in two files: the same work cut at different lines) are left
 * out together: each would otherwise be estimated from its own copy.
 * @module
 */
import type { SessionLog } from '../session/session-log.ts';
import {
  estimateTaskTokens,
  fitTaskModel,
  medianPerTaskBaseline,
  type TaskPoint,
} from '../../core/plan/task-estimate.ts';
import { readTaskTimeline } from '../tasks/task-points.ts';

export type TaskEstimateScore = {
  /** Sessions with at least one finished point. */
  sessions: number;
  points: number;
  /** Median |log(estimate / actual)|. */
  modelError: number;
  baselineError: number;
  /** Share of actuals inside the model's 80% range. */
  coverage: number;
  /** The same per held-out session, averaged over sessions (a long session counts once). */
  sessionCoverage: number;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** The home folder a working directory is under (`/Users/ana`, `/home/ana`), if any. */
function homeOf(cwd: string | null): string | null {
  return cwd === null ? null : (/^\/(?:Users|home)\/[^/]+/.exec(cwd)?.[0] ?? null);
}

/**
 * `sameUser`: learn only from sessions under the same home folder — as shim runs, where the
 * history is the user's own (the fixtures mix several users' sessions).
 */
export async function evaluateTaskEstimates(
  logs: readonly SessionLog[],
  options: { sameUser?: boolean } = {},
): Promise<TaskEstimateScore> {
  const sessions: Array<{ id: string; user: string | null; points: TaskPoint[] }> = [];
  for (const { path, agent } of logs) {
    const { points, state } = await readTaskTimeline(path, agent);
    const finished = points.filter((p) => (p.actual ?? 0) > 0);
    const id = state.sessionId ?? path;
    if (finished.length > 0)
      sessions.push({
        id,
        user: homeOf(state.cwd),
        points: finished.map((p) => ({ ...p, session: id })),
      });
  }
  const modelErrors: number[] = [];
  const baselineErrors: number[] = [];
  let inside = 0;
  const perSession: number[] = [];
  for (const { id, user, points: own } of sessions) {
    let insideHere = 0;
    const others = sessions
      .filter((s) => s.id !== id && (options.sameUser !== true || s.user === user))
      .flatMap((s) => s.points);
    const model = fitTaskModel(others);
    const baseline = medianPerTaskBaseline(others);
    for (const point of own) {
      const actual = point.actual!;
      const estimate = estimateTaskTokens(model, point);
      modelErrors.push(Math.abs(Math.log(estimate.tokens / actual)));
      baselineErrors.push(Math.abs(Math.log(baseline(point) / actual)));
      if (actual >= estimate.low && actual <= estimate.high) {
        inside++;
        insideHere++;
      }
    }
    perSession.push(insideHere / own.length);
  }
  return {
    sessions: new Set(sessions.map((s) => s.id)).size,
    points: modelErrors.length,
    modelError: modelErrors.length > 0 ? median(modelErrors) : NaN,
    baselineError: baselineErrors.length > 0 ? median(baselineErrors) : NaN,
    coverage: modelErrors.length > 0 ? inside / modelErrors.length : NaN,
    sessionCoverage:
      perSession.length > 0 ? perSession.reduce((a, b) => a + b, 0) / perSession.length : NaN,
  };
}
