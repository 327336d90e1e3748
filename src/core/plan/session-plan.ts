/**
 * Session planning (seed 004 Phase 5, "session planning recommendations", "suggest task
 * reordering"): given the open steps in order with their estimates, which to do in what is left
 * of this session and which to leave for the next ones, so that none starts where a compaction
 * would cut it — and, when the next step would be cut while a later one fits, the suggestion to
 * take that one first, with the figures it rests on. The next sessions are packed as the loop
 * packs them (core/loop/loop-plan.ts). Pure.
 * @module
 */
import { planLoop, type LoopPlan } from '../loop/loop-plan.ts';

export type OpenStep = { index: number; title: string; tokens: number };

export type Reordering = {
  /** The step that fits now, to take first. */
  take: OpenStep;
  /** The step that would be cut if started now. */
  before: OpenStep;
  /** Tokens left in this session when `before` would start. */
  left: number;
};

export type SessionPlan = {
  /** Steps to do in this session, in order: each fits in what is left when it starts. */
  now: OpenStep[];
  /** The first step that would be cut by a compaction if started now; null when all fit. */
  cut: { step: OpenStep; left: number } | null;
  /** The rest, packed into fresh sessions. */
  later: LoopPlan | null;
  /** Later steps that fit in what is left now, each a suggestion to take it before `cut`. */
  reorder: Reordering[];
};

export function planSession(request: {
  steps: readonly OpenStep[];
  /** Tokens left before compaction in the running session; null without one (all go later). */
  left: number | null;
  sharedTokens: number;
  startTokens: number;
  restartTokens: number;
}): SessionPlan {
  const now: OpenStep[] = [];
  let left = request.left ?? 0;
  let i = 0;
  if (request.left !== null) {
    for (; i < request.steps.length; i++) {
      const step = request.steps[i]!;
      if (step.tokens > left) break;
      now.push(step);
      left -= step.tokens;
    }
  }
  const rest = request.steps.slice(i);
  const cut = request.left !== null && rest.length > 0 ? { step: rest[0]!, left } : null;
  const reorder: Reordering[] = [];
  if (cut) {
    let room = left;
    for (const step of rest.slice(1)) {
      if (step.tokens > room) continue;
      reorder.push({ take: step, before: cut.step, left: room });
      room -= step.tokens;
    }
  }
  const later =
    rest.length === 0
      ? null
      : planLoop({
          steps: rest,
          sharedTokens: request.sharedTokens,
          startTokens: request.startTokens,
          restartTokens: request.restartTokens,
        });
  return { now, cut, later, reorder };
}

const k = (tokens: number) => `${Math.round(tokens / 1000)}k`;

/** One reordering in a line: the step to take first, the one it goes before, the room left. */
export function describeReordering(r: Reordering, where = 'left'): string {
  return `reorder: step ${r.take.index} (~${k(r.take.tokens)}) fits in the ${k(r.left)} ${where} — take it before step ${r.before.index} if it does not depend on it`;
}

/**
 * The loop's first session as a session plan: its room is a fresh session's up to the restart,
 * so a step the restart would cut there, and later steps that still fit, are said at the start.
 */
export function reorderFirstSession(plan: LoopPlan): Reordering[] {
  const steps = plan.steps.map(({ index, title, tokens }) => ({ index, title, tokens }));
  return planSession({
    steps,
    left: plan.room,
    sharedTokens: 0,
    startTokens: 0,
    restartTokens: plan.restartTokens,
  }).reorder;
}

/** The plan in a few lines (`shim estimate <plan>`, the loop's start). */
export function describeSessionPlan(plan: SessionPlan): string[] {
  const lines: string[] = [];
  if (plan.now.length > 0)
    lines.push(
      `now: step${plan.now.length === 1 ? '' : 's'} ${plan.now.map((s) => s.index).join(', ')} fit in this session`,
    );
  if (plan.cut)
    lines.push(
      `next session: step ${plan.cut.step.index} (~${k(plan.cut.step.tokens)}) would be cut here: ${k(plan.cut.left)} left before compaction`,
    );
  for (const r of plan.reorder) lines.push(describeReordering(r));
  if (plan.later && plan.later.sessions > 1)
    lines.push(
      `later: ${plan.later.steps.length} step${plan.later.steps.length === 1 ? '' : 's'} in ~${plan.later.sessions} fresh sessions`,
    );
  return lines;
}
