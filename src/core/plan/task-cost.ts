/**
 * One task's own cost, learned from the spans of completed tasks (app/tasks/task-points.ts
 * `taskTokens`: the context spent from in progress to completed): a least-squares line in logs
 * over what the task's text says (how long it is, which kind of work its words name) and the
 * session's pace, plus a per-project offset shrunk towards none. The simple policy it is judged
 * against gives every open task the same share of the task list's estimate
 * (core/plan/task-estimate.ts, core/plan/plan-size.ts). Pure.
 * @module
 */
import { dot, fitLogLine } from './task-estimate.ts';

/** A completed task: what was known of it when it was first seen, and what it cost. */
export type TaskSpan = {
  title: string;
  /** The session's context growth per response when the task was first seen. */
  growthPerResponse: number;
  /** Context tokens from in progress to completed. */
  tokens: number;
  project?: string;
};

export type TaskCostModel = {
  /** log(tokens) = weights · taskFeatures(task). */
  weights: number[];
  /** log(tokens) added for a project's tasks. */
  projects: Record<string, number>;
  /** The variance of log(actual / estimate) over the spans it learned from. */
  variance: number;
  points: number;
};

/**
 * `tokens`: the line's estimate (the median cost of such a task); `expected`: the mean cost,
 * larger by exp(variance / 2) — what a plan that adds tasks up should add, as a few big misses
 * weigh more than many small ones.
 */
export type TaskCost = { tokens: number; expected: number };

/**
 * Kinds of work a task's words name — general verbs of software work, not any session's text.
 * Each is one 0/1 feature; a title may name several.
 */
const KINDS: readonly RegExp[] = [
  /\b(?:tests?|verify|check|lint|typecheck|run)\b/i,
  /\b(?:implement|add|create|build|write|new|support)\b/i,
  /\b(?:fix|debug|bug|error|fail\w*|broken)\b/i,
  /\b(?:update|change|modify|rename|move|replace|remove|delete|clean\w*)\b/i,
  /\b(?:read|review|investigate|explore|understand|analy[sz]e|find|search|look)\b/i,
  /\b(?:docs?|readme|comments?|changelog|document\w*)\b/i,
  /\b(?:commit|push|merge|deploy|release|pr)\b/i,
  /\b(?:refactor\w*|restructure|split|extract)\b/i,
];

/** Fewer spans than this and there is no model: the simple policy stands. */
export const MIN_TASK_SPANS = 40;
/** Spans below this are a list updated in one go (no work seen between): they teach nothing. */
export const MIN_SPAN_TOKENS = 500;
const MIN_GROWTH = 100;

export function taskFeatures(task: Pick<TaskSpan, 'title' | 'growthPerResponse'>): number[] {
  const words = task.title.split(/\s+/).filter(Boolean).length;
  return [
    1,
    Math.log(1 + words),
    Math.log(Math.max(MIN_GROWTH, task.growthPerResponse)),
    ...KINDS.map((kind) => (kind.test(task.title) ? 1 : 0)),
  ];
}

/** The model learned from `spans` (those of at least MIN_SPAN_TOKENS); null with too few. */
export function fitTaskCostModel(spans: readonly TaskSpan[]): TaskCostModel | null {
  const done = spans.filter((s) => s.tokens >= MIN_SPAN_TOKENS);
  if (done.length < MIN_TASK_SPANS) return null;
  const rows = done.map(taskFeatures);
  const y = done.map((s) => Math.log(s.tokens));
  const { w: weights, projects } = fitLogLine(
    rows,
    y,
    done.map((s) => s.project),
  );
  const misses = done.map(
    (s, i) => y[i]! - dot(weights, rows[i]!) - (s.project === undefined ? 0 : projects[s.project]!),
  );
  const mean = misses.reduce((a, m) => a + m, 0) / misses.length;
  const variance = misses.reduce((a, m) => a + (m - mean) ** 2, 0) / misses.length;
  return { weights, projects, variance, points: done.length };
}

export function estimateTaskCost(
  model: TaskCostModel,
  task: Pick<TaskSpan, 'title' | 'growthPerResponse' | 'project'>,
): TaskCost {
  const offset = task.project === undefined ? 0 : (model.projects[task.project] ?? 0);
  const log = dot(model.weights, taskFeatures(task)) + offset;
  return {
    tokens: Math.round(Math.exp(log)),
    expected: Math.round(Math.exp(log + model.variance / 2)),
  };
}
