/**
 * How many context tokens finishing a session's open tasks will take (EST-001/004), learned from
 * finished sessions: at every change of a task list with open tasks, what the session then spent
 * (context growth, across compactions) until all of them were done. The model is a least-squares
 * line in logs over the number of open tasks and the session's recent growth per response, plus
 * an offset per project (what its sessions cost beyond the line, shrunk towards none while it has
 * few points); its 80% range is the spread of what it missed on the sessions it learned from.
 * Without history it
 * falls back to the built-in prior (medians of 27 real sessions, docs/estimates.md). Pure.
 * @module
 */

/** A moment a task list changed with open tasks. */
export type TaskPoint = {
  openTasks: number;
  /** The session's context growth per response over its last responses (tokens). */
  growthPerResponse: number;
  /** Tokens spent until every open task was done; absent when they never were (still open). */
  actual?: number;
  /** The session's working directory: tasks cost alike within a project. */
  project?: string;
  /** The session it was seen in: the range is judged on sessions the offsets did not learn from. */
  session?: string;
};

export type TaskModel = {
  /** log(tokens) = weights · [1, log(open), log(growth)]. */
  weights: [number, number, number];
  /** The 10% and 90% quantiles of log(actual / estimate) over the training points. */
  low: number;
  high: number;
  /** Training points; 0 for the prior. */
  points: number;
  /** log(tokens) added for a project's sessions. */
  projects: Record<string, number>;
};

export type TaskEstimate = { tokens: number; low: number; high: number };

/**
 * No history: 7.2k tokens per open task, 80% between 2.6k and 21k (27 real sessions, 301
 * points; docs/estimates.md).
 */
export const PRIOR_MODEL: TaskModel = {
  weights: [Math.log(7_200), 1, 0],
  low: Math.log(2_600 / 7_200),
  high: Math.log(21_100 / 7_200),
  points: 0,
  projects: {},
};

/** A typical response's context growth, where nothing shows the pace (no history, no responses). */
export const DEFAULT_GROWTH = 1_500;

/** Fewer points than this and the prior stands. */
export const MIN_TRAINING_POINTS = 20;
const RIDGE = 1;
/**
 * A project's offset is the sum of its misses over (its points + this): a project with a handful
 * of points moves the estimate little. Chosen on the fixtures, leave-one-session-out
 * (docs/estimates.md).
 */
const PROJECT_SHRINK = 5;
const MIN_GROWTH = 100;

function features(p: TaskPoint): [number, number, number] {
  return [
    1,
    Math.log(Math.max(1, p.openTasks)),
    Math.log(Math.max(MIN_GROWTH, p.growthPerResponse)),
  ];
}

export const dot = (w: readonly number[], x: readonly number[]) =>
  w.reduce((a, v, i) => a + v * x[i]!, 0);

function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(p * (sorted.length - 1))))]!;
}

/** The p-quantile of weighted values: the first value whose cumulative weight reaches p. */
function weightedQuantile(values: ReadonlyArray<{ miss: number; weight: number }>, p: number) {
  const sorted = [...values].sort((a, b) => a.miss - b.miss);
  const total = sorted.reduce((sum, v) => sum + v.weight, 0);
  let seen = 0;
  for (const v of sorted) {
    seen += v.weight;
    if (seen >= p * total) return v.miss;
  }
  return sorted[sorted.length - 1]!.miss;
}

/** Solves (XᵀX + λI')w = Xᵀy, the intercept (the first column) not shrunk. */
function ridgeLeastSquares(
  rows: ReadonlyArray<readonly number[]>,
  y: readonly number[],
  ridge = RIDGE,
): number[] {
  const k = rows[0]!.length;
  const a = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => (i === j && i > 0 ? ridge : 0)),
  );
  const b = new Array<number>(k).fill(0);
  rows.forEach((x, n) => {
    for (let i = 0; i < k; i++) {
      b[i]! += x[i]! * y[n]!;
      for (let j = 0; j < k; j++) a[i]![j]! += x[i]! * x[j]!;
    }
  });
  for (let i = 0; i < k; i++) {
    let pivot = i;
    for (let r = i + 1; r < k; r++) if (Math.abs(a[r]![i]!) > Math.abs(a[pivot]![i]!)) pivot = r;
    [a[i], a[pivot]] = [a[pivot]!, a[i]!];
    [b[i], b[pivot]] = [b[pivot]!, b[i]!];
    for (let r = 0; r < k; r++) {
      if (r === i) continue;
      const f = a[r]![i]! / a[i]![i]!;
      for (let c = i; c < k; c++) a[r]![c]! -= f * a[i]![c]!;
      b[r]! -= f * b[i]!;
    }
  }
  return b.map((v, i) => v / a[i]![i]!);
}

type Finished = TaskPoint & { actual: number };

/**
 * A line in logs (`y` = log tokens over `rows` of features) and each project's offset: its
 * points' mean miss, shrunk towards none by PROJECT_SHRINK (also core/plan/task-cost.ts).
 */
export function fitLogLine(
  rows: ReadonlyArray<readonly number[]>,
  y: readonly number[],
  projectOf: ReadonlyArray<string | undefined>,
): { w: number[]; projects: Record<string, number> } {
  const w = ridgeLeastSquares(rows, y);
  const byProject = new Map<string, { sum: number; count: number }>();
  projectOf.forEach((project, i) => {
    if (project === undefined) return;
    const seen = byProject.get(project) ?? { sum: 0, count: 0 };
    byProject.set(project, { sum: seen.sum + y[i]! - dot(w, rows[i]!), count: seen.count + 1 });
  });
  const projects = Object.create(null) as Record<string, number>;
  for (const [project, { sum, count }] of byProject)
    projects[project] = sum / (count + PROJECT_SHRINK);
  return { w, projects };
}

/** The line and the project offsets learned from `done`. */
function fitLine(done: readonly Finished[]): { w: number[]; projects: Record<string, number> } {
  return fitLogLine(
    done.map(features),
    done.map((p) => Math.log(p.actual)),
    done.map((p) => p.project),
  );
}

/**
 * What the model misses on sessions it did not learn from: each session's points against the
 * line and offsets fitted without that session. The range drawn from in-sample misses came out
 * too narrow (65% of held-out actuals inside the 80% range): the offsets had learned the very
 * points they were judged on.
 */
function heldOutMisses(done: readonly Finished[]): Array<{ miss: number; weight: number }> {
  const groups = new Map<string, number[]>();
  done.forEach((p, i) => {
    const key = p.session ?? `#${i}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  if (groups.size < 2) return [];
  const misses: Array<{ miss: number; weight: number }> = [];
  for (const members of groups.values()) {
    const inside = new Set(members);
    const others = done.filter((_, i) => !inside.has(i));
    if (others.length < MIN_TRAINING_POINTS) continue;
    const { w, projects } = fitLine(others);
    for (const i of members) {
      const p = done[i]!;
      misses.push({
        miss: Math.log(p.actual) - dot(w, features(p)) - (projects[p.project ?? ''] ?? 0),
        // Each session counts once: a long session's many points set the range otherwise, and
        // the range is for the next session, not the next point of a long one.
        weight: 1 / members.length,
      });
    }
  }
  return misses;
}

/** The model learned from finished points (those with an actual); the prior with too few. */
export function fitTaskModel(points: readonly TaskPoint[]): TaskModel {
  const done = points.filter((p): p is Finished => (p.actual ?? 0) > 0);
  if (done.length < MIN_TRAINING_POINTS) return PRIOR_MODEL;
  const { w, projects } = fitLine(done);
  const heldOut = heldOutMisses(done);
  const residuals =
    heldOut.length >= MIN_TRAINING_POINTS
      ? heldOut
      : done.map((p) => ({
          miss: Math.log(p.actual) - dot(w, features(p)) - (projects[p.project ?? ''] ?? 0),
          weight: 1,
        }));
  return {
    weights: [w[0]!, w[1]!, w[2]!],
    low: weightedQuantile(residuals, 0.1),
    high: weightedQuantile(residuals, 0.9),
    points: done.length,
    projects,
  };
}

export function estimateTaskTokens(model: TaskModel, point: TaskPoint): TaskEstimate {
  const log =
    dot(model.weights, features(point)) +
    (point.project === undefined ? 0 : (model.projects[point.project] ?? 0));
  return {
    tokens: Math.round(Math.exp(log)),
    low: Math.round(Math.exp(log + model.low)),
    high: Math.round(Math.exp(log + model.high)),
  };
}

/** The baseline the model is judged against: the historical median per open task × open tasks. */
export function medianPerTaskBaseline(points: readonly TaskPoint[]): (p: TaskPoint) => number {
  const perTask = points
    .filter((p) => (p.actual ?? 0) > 0)
    .map((p) => p.actual! / Math.max(1, p.openTasks))
    .sort((a, b) => a - b);
  const median = perTask.length > 0 ? quantile(perTask, 0.5) : Math.exp(PRIOR_MODEL.weights[0]);
  return (p) => median * Math.max(1, p.openTasks);
}
