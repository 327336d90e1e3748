/**
 * The plan before a loop starts (seed 004 RLP-006, "estimate context per TODO item before
 * starting"): each open step of the run's plan against what one iteration can hold before the
 * loop restarts it — which fit in one session, which need shards, and after which step the loop
 * is expected to restart. Steps go in order, as the agent takes them. Pure.
 * @module
 */

export type PlannedStep = {
  index: number;
  title: string;
  tokens: number;
  /** Fits in one session's room with the shared context. */
  fits: boolean;
  /** Sessions the step alone needs (1 when it fits; more: split it, `shim shard`). */
  shards: number;
  /** The session (1-based, fresh ones) the step starts in. */
  session: number;
};

export type LoopPlan = {
  steps: PlannedStep[];
  /** What a session can take for steps: up to the restart point, less its start and the shared context. */
  room: number;
  /** Context tokens at which the loop restarts a session. */
  restartTokens: number;
  sessions: number;
  /** Steps after which a restart is expected (a step needing shards restarts inside it too). */
  restartsAfter: number[];
};

export function planLoop(request: {
  steps: ReadonlyArray<{ index: number; title: string; tokens: number }>;
  sharedTokens: number;
  /** Tokens a fresh session starts with (system prompt, tools, instructions). */
  startTokens: number;
  restartTokens: number;
}): LoopPlan {
  const room = Math.max(1, request.restartTokens - request.startTokens - request.sharedTokens);
  const steps: PlannedStep[] = [];
  const restartsAfter: number[] = [];
  let session = 1;
  let used = 0;
  request.steps.forEach((step, i) => {
    if (used > 0 && used + step.tokens > room) {
      restartsAfter.push(request.steps[i - 1]!.index);
      session++;
      used = 0;
    }
    const shards = Math.max(1, Math.ceil(step.tokens / room));
    steps.push({ ...step, fits: shards === 1, shards, session });
    if (shards > 1) {
      session += shards - 1;
      used = step.tokens - (shards - 1) * room;
    } else used += step.tokens;
  });
  return { steps, room, restartTokens: request.restartTokens, sessions: session, restartsAfter };
}

const k = (tokens: number) => `${Math.round(tokens / 1000)}k`;

/** The plan in one line (the loop's progress output and logs). */
export function describeLoopPlan(
  plan: Pick<LoopPlan, 'steps' | 'sessions' | 'restartsAfter' | 'restartTokens'>,
): string {
  const fit = plan.steps.filter((s) => s.fits).length;
  const big = plan.steps.filter((s) => !s.fits);
  const total = plan.steps.reduce((sum, s) => sum + s.tokens, 0);
  const parts = [
    `plan: ${plan.steps.length} open step${plan.steps.length === 1 ? '' : 's'} ≈ ${k(total)} tokens in ~${plan.sessions} session${plan.sessions === 1 ? '' : 's'} (restart at ${k(plan.restartTokens)})`,
    `${fit} fit${fit === 1 ? 's' : ''} in one session`,
  ];
  if (big.length > 0)
    parts.push(
      `${big.map((s) => `step ${s.index} needs ${s.shards} shards`).join(', ')} (shim shard)`,
    );
  if (plan.restartsAfter.length > 0)
    parts.push(
      `restarts expected after step${plan.restartsAfter.length === 1 ? '' : 's'} ${plan.restartsAfter.join(', ')}`,
    );
  return parts.join('; ');
}
