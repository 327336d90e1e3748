/**
 * How good the task estimates are on real sessions, leave-one-out (issue 15): each session's
 * task points estimated by a model learned from the other sessions only, beside the baseline
 * "historical median per open task × open tasks" learned from the same others.
 * @module
 */
import {
  estimateTaskTokens,
  fitTaskModel,
  medianPerTaskBaseline,
  type TaskPoint,
} from '../core/task-estimate.ts';
import { readTaskTimeline } from './task-points.ts';

export type TaskEstimateScore = {
  /** Sessions with at least one finished point. */
  sessions: number;
  points: number;
  /** Median |log(estimate / actual)|. */
  modelError: number;
  baselineError: number;
  /** Share of actuals inside the model's 80% range. */
  coverage: number;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

export async function evaluateTaskEstimates(paths: readonly string[]): Promise<TaskEstimateScore> {
  const sessions: TaskPoint[][] = [];
  for (const path of paths) {
    const { points } = await readTaskTimeline(path);
    const finished = points.filter((p) => (p.actual ?? 0) > 0);
    if (finished.length > 0) sessions.push(finished);
  }
  const modelErrors: number[] = [];
  const baselineErrors: number[] = [];
  let inside = 0;
  sessions.forEach((own, i) => {
    const others = sessions.filter((_, j) => j !== i).flat();
    const model = fitTaskModel(others);
    const baseline = medianPerTaskBaseline(others);
    for (const point of own) {
      const actual = point.actual!;
      const estimate = estimateTaskTokens(model, point);
      modelErrors.push(Math.abs(Math.log(estimate.tokens / actual)));
      baselineErrors.push(Math.abs(Math.log(baseline(point) / actual)));
      if (actual >= estimate.low && actual <= estimate.high) inside++;
    }
  });
  return {
    sessions: sessions.length,
    points: modelErrors.length,
    modelError: modelErrors.length > 0 ? median(modelErrors) : NaN,
    baselineError: baselineErrors.length > 0 ? median(baselineErrors) : NaN,
    coverage: modelErrors.length > 0 ? inside / modelErrors.length : NaN,
  };
}
