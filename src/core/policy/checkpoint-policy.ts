/**
 * When the hooks take a checkpoint besides levels: by count (every N tool calls, every M minutes
 * of activity, milestones — docs/specification.md) or, the default, where the work changes and
 * only once a file changed since the last one (core/checkpoint/checkpoint-timing.ts, measured in
 * `npm run bench`: docs/intelligence.md). Read by the hook's decision (hook-policy.ts) and by the
 * quiet window that counts calls towards the next one (quiet-window.ts).
 * @module
 */
import type { TimingPolicy } from '../checkpoint/checkpoint-timing.ts';

export type CheckpointTiming = 'changes' | 'count';

export type CheckpointPolicy = {
  /**
   * `count`: every N tool calls. `changes`: after N calls without a work change, and only when a
   * file changed since the last checkpoint.
   */
  toolCallInterval: number;
  /** Every M minutes of activity (default 10); under `changes` only after a file change too. */
  timeIntervalMs: number;
  /** Absent: `count` (the policy the seed names). */
  timing?: CheckpointTiming;
  /**
   * `changes`: how many calls a quiet window (quiet-window.ts) may span while no file changed
   * since the last checkpoint — as many as by count, so the hooks look no more often than they
   * did; a file-writing tool ends it (post-tool-use-quick.ts).
   */
  unchangedInterval?: number;
  /**
   * Also whenever the requests or the task list changed since the last checkpoint: set while a
   * team store is connected, because another machine restores from the last checkpoint that
   * reached it, never from this machine's transcript (docs/team.md).
   */
  onWorkChange?: boolean;
};

export const DEFAULT_CHECKPOINT_POLICY: CheckpointPolicy = {
  toolCallInterval: 5,
  timeIntervalMs: 10 * 60 * 1000,
};

/** The `checkpoints` settings (store/config/config.ts) the policy is made of. */
export type CheckpointSettings = {
  timing: CheckpointTiming;
  everyToolCalls: number;
  fallbackCalls: number;
  everyMinutes: number;
};

/** The hooks' policy from the user's settings. */
export function checkpointPolicyOf(
  settings: CheckpointSettings,
  onWorkChange = false,
): CheckpointPolicy {
  const changes = settings.timing === 'changes';
  return {
    timing: settings.timing,
    toolCallInterval: changes ? settings.fallbackCalls : settings.everyToolCalls,
    ...(changes ? { unchangedInterval: settings.everyToolCalls } : {}),
    timeIntervalMs: settings.everyMinutes * 60_000,
    ...(onWorkChange ? { onWorkChange } : {}),
  };
}

/** The hooks' policy as the bench scores it (levels and time aside): the same rule. */
export function timingPolicyOf(policy: CheckpointPolicy): TimingPolicy {
  return policy.timing === 'changes'
    ? { kind: 'work-change', fallbackAfter: policy.toolCallInterval, onlyAfterEdits: true }
    : { kind: 'count', every: policy.toolCallInterval };
}
