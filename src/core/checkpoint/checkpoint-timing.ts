/**
 * When to checkpoint (seed 004 Phase 5, "predict optimal checkpoint timing"): by count (every N
 * tool calls, the simple policy) or where the work changes — a task completed, tests passing, a
 * commit — with a fallback after K calls without one, K learned from the user's other sessions
 * at a budget of checkpoints no larger than the count policy's. Scored by what a restore would
 * lose: a session that dies after any tool call restores its newest checkpoint, and the file
 * changes made after it are lost. Pure; app/evaluation/evaluate-checkpoint-timing.ts reads the
 * real sessions into steps.
 * @module
 */

/** One finished tool call: did it change a file, and did the work change with it. */
export type WorkStep = { edit: boolean; workChange: boolean };

export type TimingPolicy =
  | { kind: 'count'; every: number }
  | {
      kind: 'work-change';
      fallbackAfter: number;
      /** Skip a checkpoint while no file changed since the last one (it would save no work). */
      onlyAfterEdits?: boolean;
    };

/** Indexes of the steps after which a checkpoint is taken. */
export function placeCheckpoints(steps: readonly WorkStep[], policy: TimingPolicy): number[] {
  const placed: number[] = [];
  let since = 0;
  let unsaved = 0;
  steps.forEach((step, i) => {
    since++;
    if (step.edit) unsaved++;
    const due =
      policy.kind === 'count'
        ? since >= policy.every
        : (step.workChange || since >= policy.fallbackAfter) &&
          (policy.onlyAfterEdits !== true || unsaved > 0);
    if (due) {
      placed.push(i);
      since = 0;
      unsaved = 0;
    }
  });
  return placed;
}

export type TimingScore = {
  /** Tool calls after which the session could have died (every one). */
  restores: number;
  /** Of those, restores that would have lost at least one file change. */
  lossy: number;
  /** File changes lost, summed over every restore. */
  editsLost: number;
  checkpoints: number;
};

export function scoreTiming(steps: readonly WorkStep[], policy: TimingPolicy): TimingScore {
  const placed = new Set(placeCheckpoints(steps, policy));
  let unsaved = 0;
  let lossy = 0;
  let editsLost = 0;
  steps.forEach((step, i) => {
    if (step.edit) unsaved++;
    // A death right after this call, before any checkpoint it triggers, loses what is unsaved.
    if (unsaved > 0) lossy++;
    editsLost += unsaved;
    if (placed.has(i)) unsaved = 0;
  });
  return { restores: steps.length, lossy, editsLost, checkpoints: placed.size };
}

export function addScores(scores: readonly TimingScore[]): TimingScore {
  const sum = { restores: 0, lossy: 0, editsLost: 0, checkpoints: 0 };
  for (const s of scores) {
    sum.restores += s.restores;
    sum.lossy += s.lossy;
    sum.editsLost += s.editsLost;
    sum.checkpoints += s.checkpoints;
  }
  return sum;
}

/** Fallback gaps tried when learning. */
export const FALLBACK_GAPS = Array.from({ length: 60 }, (_, i) => i + 1);

/**
 * The fallback gap that loses least over the user's other sessions (`byGap`: their summed score
 * under each gap) while taking no more checkpoints than `allowed` (the count policy's over the
 * same sessions); the largest gap when none fits.
 */
export function chooseFallbackGap(
  byGap: ReadonlyMap<number, TimingScore>,
  allowed: number,
): number {
  let best: { gap: number; lossy: number } | null = null;
  for (const [gap, score] of byGap) {
    if (score.checkpoints > allowed) continue;
    if (best === null || score.lossy < best.lossy) best = { gap, lossy: score.lossy };
  }
  return best?.gap ?? Math.max(...byGap.keys());
}
