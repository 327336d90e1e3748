/**
 * How many context tokens a plan's open steps will take (EST-001): the task model's estimate for
 * that many open tasks, spread over the steps, plus what reading each step's text and the files it
 * names costs; the shared context (goal, constraints, the files they name) once. Pure.
 * @module
 */
import type { Plan, PlanStep } from './plan.ts';
import { estimateTaskTokens, type TaskEstimate, type TaskModel } from './task-estimate.ts';

/** Characters per token for prose and code alike (Claude's tokenizer averages 3.5–4). */
export const CHARS_PER_TOKEN = 4;

export const textTokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

export type SizedStep = { step: PlanStep; tokens: number };

export type PlanSize = {
  steps: SizedStep[];
  /** The shared context read into every session that works on the plan. */
  sharedTokens: number;
  /** The open steps and the shared context. */
  total: TaskEstimate;
};

export function sizePlan(request: {
  plan: Plan;
  model: TaskModel;
  /** The pace to assume: the user's typical growth per response. */
  growthPerResponse: number;
  /** Bytes of the files a text names that exist in the repository. */
  fileBytes: (text: string) => number;
  /** The working directory of the session that will do it (its project's history counts). */
  project?: string;
}): PlanSize {
  const { plan, model } = request;
  const open = plan.steps.filter((s) => s.done !== true);
  const work =
    open.length > 0
      ? estimateTaskTokens(model, {
          openTasks: open.length,
          growthPerResponse: request.growthPerResponse,
          ...(request.project === undefined ? {} : { project: request.project }),
        })
      : { tokens: 0, low: 0, high: 0 };
  const reading = (text: string) => textTokens(text.length + request.fileBytes(text));
  const steps = plan.steps.map((step) => ({
    step,
    tokens: step.done === true ? 0 : Math.round(work.tokens / open.length) + reading(step.body),
  }));
  const sharedTokens = reading(plan.shared);
  const extra = sharedTokens + open.reduce((a, s) => a + reading(s.body), 0);
  return {
    steps,
    sharedTokens,
    total: { tokens: work.tokens + extra, low: work.low + extra, high: work.high + extra },
  };
}
