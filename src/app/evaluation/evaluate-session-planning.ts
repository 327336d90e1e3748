/**
 * What session planning is worth on real sessions (issue 43 item 9, leave-one-out): at every
 * change of a session's task list, its open tasks are run through a simulation twice — in the
 * list's order, as the agent takes them, and as `planSession` (core/plan/session-plan.ts) would
 * have them, from estimates learned from the OTHER sessions only: the steps that fit in what is
 * left before compaction now (and the later ones it suggests taking first), the rest in the next
 * session. Each task costs what it really cost (its span from in progress to completed,
 * app/tasks/task-points.ts); a task is cut when the context reaches the compaction threshold
 * while it runs. Both runs go on in fresh windows until every task is done, so a plan that only
 * puts a cut off is no better. Approximations: a window after a compaction or a restart starts
 * where the session's first response did; the threshold is the session's agent's rule for its
 * model, no user settings; only tasks with a known span take part. The same is run from the
 * per-task model's estimates (core/plan/task-cost.ts, learned from the other sessions' task
 * spans), to judge it against the simple policy it would replace.
 * @module
 */
import type { SessionLog } from '../session/session-log.ts';
import { assessLiveSession } from '../session/assess-live-session.ts';
import { textTokens } from '../../core/plan/plan-size.ts';
import { planSession } from '../../core/plan/session-plan.ts';
import { estimateTaskTokens, fitTaskModel, type TaskPoint } from '../../core/plan/task-estimate.ts';
import {
  estimateTaskCost,
  fitTaskCostModel,
  MIN_SPAN_TOKENS,
  type TaskCostModel,
  type TaskSpan,
} from '../../core/plan/task-cost.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import { readTaskTimeline, type SessionTaskPoint } from '../tasks/task-points.ts';

export type PlanningRun = {
  /** Tasks cut by a compaction at least once. */
  cut: number;
  /** Context windows used until every task was done. */
  windows: number;
};

export type SessionPlanningScore = {
  /** Sessions with a task list change whose open tasks have known spans. */
  sessions: number;
  /** Task-list changes simulated. */
  points: number;
  /** Open tasks summed over those changes. */
  tasks: number;
  inOrder: PlanningRun;
  /** As planned from the simple policy's estimates: the list's estimate shared out evenly. */
  planned: PlanningRun;
  /** As planned from the per-task model's estimates (core/plan/task-cost.ts): its median… */
  plannedPerTask: PlanningRun;
  /** … and its expected (mean) cost. */
  plannedExpected: PlanningRun;
  /**
   * Median |log(estimate / actual)| of each open task's estimate, over tasks that cost at least
   * MIN_SPAN_TOKENS: the simple policy's and the per-task model's (the simple one where the
   * other sessions teach no model).
   */
  error: { simple: number; perTask: number; tasks: number };
  /** Sessions whose left-out model had too few spans to fit (the simple estimates stood). */
  noModel: number;
  /** Changes at which the plan left a task for later although every one of them would have fit. */
  needlessDeferrals: number;
};

type SimTask = { estimate: number; actual: number };

/**
 * Runs `tasks` through windows: the first has `left` tokens, each later `fresh`. `choose` picks,
 * at each window's start, what to do in it (in order; the rest waits); a task under way comes
 * first (`underWay`: the tokens already spent on it). A task needing more than what is left is
 * cut there and finishes in the next window.
 */
export function simulateWindows(
  tasks: readonly SimTask[],
  left: number,
  fresh: number,
  choose: (rest: readonly SimTask[], left: number, underWay: number) => readonly SimTask[],
): PlanningRun {
  const need = new Map(tasks.map((t) => [t, t.actual]));
  const cut = new Set<SimTask>();
  let rest = [...tasks];
  let room = left;
  let windows = 1;
  for (; rest.length > 0 && windows <= 1_000; windows++, room = Math.max(1, fresh)) {
    // What was already spent on a task a compaction cut (the planner knows that much of it).
    const underWay = cut.has(rest[0]!) ? rest[0]!.actual - need.get(rest[0]!)! : 0;
    const chosen = choose(rest, room, underWay);
    for (const task of chosen.length > 0 ? chosen : rest.slice(0, 1)) {
      const needed = need.get(task)!;
      if (needed > room) {
        cut.add(task);
        need.set(task, needed - room);
        rest = [task, ...rest.filter((t) => t !== task)];
        break;
      }
      room -= needed;
      rest = rest.filter((t) => t !== task);
    }
    if (rest.length === 0) break;
  }
  return { cut: cut.size, windows };
}

/** As planned: the steps that fit now and those the plan takes before the cut one. */
export function asPlanned(threshold: number) {
  return (rest: readonly SimTask[], left: number, underWay: number): SimTask[] => {
    const steps = rest.map((task, i) => ({
      index: i,
      title: '',
      tokens: i === 0 && underWay > 0 ? Math.max(0, task.estimate - underWay) : task.estimate,
    }));
    const plan = planSession({
      steps,
      left,
      sharedTokens: 0,
      startTokens: 0,
      restartTokens: threshold,
    });
    return [...plan.now, ...plan.reorder.map((r) => r.take)].map((s) => rest[s.index]!);
  };
}

type Session = {
  id: string;
  points: SessionTaskPoint[];
  taskTokens: Map<string, number>;
  threshold: number;
  start: number;
};

/** A session's completed tasks as first seen, with what each cost. */
function spansOf(session: Session): TaskSpan[] {
  const spans = new Map<string, TaskSpan>();
  for (const point of session.points)
    point.keys.forEach((key, i) => {
      const tokens = session.taskTokens.get(key);
      if (tokens === undefined || spans.has(key)) return;
      spans.set(key, {
        title: point.open[i]!,
        growthPerResponse: point.growthPerResponse,
        tokens,
        ...(point.project === undefined ? {} : { project: point.project }),
      });
    });
  return [...spans.values()];
}

const median = (xs: readonly number[]) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

export async function evaluateSessionPlanning(
  logs: readonly SessionLog[],
  context: { home: string; config: ShimConfig },
): Promise<SessionPlanningScore> {
  const sessions: Session[] = [];
  for (const { path, agent } of logs) {
    const timeline = await readTaskTimeline(path, agent);
    const { state } = timeline;
    const assessment = assessLiveSession(agent, state, {
      home: context.home,
      env: {},
      now: Date.now(),
      config: context.config,
      history: false,
    });
    sessions.push({
      id: state.sessionId ?? path,
      points: timeline.points,
      taskTokens: timeline.taskTokens,
      threshold: assessment.compactThreshold,
      start: state.responses[0]?.contextTokens ?? 0,
    });
  }
  const score: SessionPlanningScore = {
    sessions: 0,
    points: 0,
    tasks: 0,
    inOrder: { cut: 0, windows: 0 },
    planned: { cut: 0, windows: 0 },
    plannedPerTask: { cut: 0, windows: 0 },
    plannedExpected: { cut: 0, windows: 0 },
    error: { simple: NaN, perTask: NaN, tasks: 0 },
    noModel: 0,
    needlessDeferrals: 0,
  };
  const misses = { simple: [] as number[], perTask: [] as number[] };
  const spans = new Map(sessions.map((s) => [s, spansOf(s)]));
  const finished = (s: Session): TaskPoint[] =>
    s.points.filter((p) => (p.actual ?? 0) > 0).map((p) => ({ ...p, session: s.id }));
  for (const session of sessions) {
    const others = sessions.filter((s) => s.id !== session.id);
    const model = fitTaskModel(others.flatMap(finished));
    const costModel: TaskCostModel | null = fitTaskCostModel(others.flatMap((s) => spans.get(s)!));
    if (costModel === null) score.noModel++;
    let counted = false;
    for (const point of session.points) {
      const left = session.threshold - (point.context ?? session.start);
      const tasks: SimTask[] = [];
      const perTask: SimTask[] = [];
      const expected: SimTask[] = [];
      point.keys.forEach((key, i) => {
        const actual = session.taskTokens.get(key);
        if (actual === undefined) return;
        const title = point.open[i]!;
        // What `shim estimate` gives a step: the model's share per open task, plus its text.
        const share = estimateTaskTokens(model, point).tokens / point.openTasks;
        const simple = Math.round(share) + textTokens(title.length);
        const own =
          costModel === null
            ? { tokens: simple, expected: simple }
            : estimateTaskCost(costModel, {
                title,
                growthPerResponse: point.growthPerResponse,
                ...(point.project === undefined ? {} : { project: point.project }),
              });
        tasks.push({ estimate: simple, actual });
        perTask.push({ estimate: own.tokens, actual });
        expected.push({ estimate: own.expected, actual });
        if (actual >= MIN_SPAN_TOKENS && left > 0) {
          misses.simple.push(Math.abs(Math.log(simple / actual)));
          misses.perTask.push(Math.abs(Math.log(own.tokens / actual)));
        }
      });
      if (tasks.length === 0 || left <= 0) continue;
      const fresh = session.threshold - session.start;
      const inOrder = simulateWindows(tasks, left, fresh, (rest) => rest);
      const planned = simulateWindows(tasks, left, fresh, asPlanned(session.threshold));
      const byTask = simulateWindows(perTask, left, fresh, asPlanned(session.threshold));
      const byMean = simulateWindows(expected, left, fresh, asPlanned(session.threshold));
      score.plannedPerTask.cut += byTask.cut;
      score.plannedPerTask.windows += byTask.windows;
      score.plannedExpected.cut += byMean.cut;
      score.plannedExpected.windows += byMean.windows;
      const firstPlan = asPlanned(session.threshold)(tasks, left, 0);
      score.points++;
      score.tasks += tasks.length;
      score.inOrder.cut += inOrder.cut;
      score.inOrder.windows += inOrder.windows;
      score.planned.cut += planned.cut;
      score.planned.windows += planned.windows;
      if (firstPlan.length < tasks.length && tasks.reduce((a, t) => a + t.actual, 0) <= left)
        score.needlessDeferrals++;
      counted = true;
    }
    if (counted) score.sessions++;
  }
  score.error = {
    simple: median(misses.simple),
    perTask: median(misses.perTask),
    tasks: misses.simple.length,
  };
  return score;
}
