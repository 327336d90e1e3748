/**
 * When the hooks take a checkpoint besides levels and milestones: every N tool calls, every M
 * minutes of activity (docs/specification.md). Read by the hook's decision (hook-policy.ts) and
 * by the quiet window that counts calls towards the next one (quiet-window.ts).
 * @module
 */
export type CheckpointPolicy = {
  /** Every N tool calls (default 5, docs/specification.md). */
  toolCallInterval: number;
  /** Every M minutes of activity (default 10). */
  timeIntervalMs: number;
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
