/**
 * When to checkpoint (seed 004 Phase 5, "predict optimal checkpoint timing"): by count (every N
 * tool calls, the simple policy) or where the work changes — a task completed, tests passing, a
 * commit — with a fallback after K calls without one, K learned from the user's other sessions
 * at a budget of checkpoints no larger than the count policy's. Scored by what a restore would
 * lose: a session that dies after any tool call restores its newest checkpoint, and the file
 * changes made after it are lost. The hooks take the same rule (core/policy/hook-policy.ts with
 * `checkpoints.timing: "changes"`): one step function and one reading of a call decide both. Pure;
 * app/evaluation/evaluate-checkpoint-timing.ts reads the real sessions into steps.
 * @module
 */
import type { SessionState, ToolCallRecord } from '../session.ts';
import { classifyCheckCommand } from './check-command.ts';

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

/** A `git commit` that is not a dry run. */
export const COMMIT_COMMAND = /\bgit\s+commit\b(?![^|;&]*--dry-run)/;

/**
 * A shell command whose success can change the work (a commit, a check run — tests, lint, a
 * build): what the hooks must look at after it. Any other command can move no milestone.
 */
export function mayChangeWork(command: string): boolean {
  return COMMIT_COMMAND.test(command) || classifyCheckCommand(command) !== null;
}

/**
 * The command line a finished shell call ran, as its agent's fold names it (`kind` and `target`:
 * Claude Code's Bash, Codex's exec_command, Gemini's run_shell_command alike); null for any other
 * call, and for a command started in the background (it has not ended: no commit made, no tests
 * passed yet).
 */
export function shellCommandOf(
  call: Pick<ToolCallRecord, 'kind' | 'target' | 'args' | 'background'>,
): string | null {
  return call.kind === 'shell' && call.background !== true ? (call.target ?? call.args) : null;
}

/**
 * One finished call as a step: it wrote a file; it changed the work (a commit or a passing test
 * run it made, or `taskCompleted` — a task marked done since the call before).
 */
export function workStepOf(
  call: Pick<ToolCallRecord, 'kind' | 'target' | 'args' | 'success' | 'background'>,
  taskCompleted: boolean,
): WorkStep {
  const shell = shellCommandOf(call) ?? '';
  const commit = call.success && COMMIT_COMMAND.test(shell);
  const testsPass = call.success && shell !== '' && classifyCheckCommand(shell) === 'test';
  return { edit: call.kind === 'file_write', workChange: taskCompleted || commit || testsPass };
}

/**
 * Whether a checkpoint is due after `since` calls since the last one (this one counted), `unsaved`
 * of them file changes, this call's step being `step`.
 */
export function isCheckpointDue(
  since: number,
  unsaved: number,
  step: WorkStep,
  policy: TimingPolicy,
): boolean {
  if (policy.kind === 'count') return since >= policy.every;
  return (
    (step.workChange || since >= policy.fallbackAfter) &&
    (policy.onlyAfterEdits !== true || unsaved > 0)
  );
}

/** Indexes of the steps after which a checkpoint is taken. */
export function placeCheckpoints(steps: readonly WorkStep[], policy: TimingPolicy): number[] {
  const placed: number[] = [];
  let since = 0;
  let unsaved = 0;
  steps.forEach((step, i) => {
    since++;
    if (step.edit) unsaved++;
    if (isCheckpointDue(since, unsaved, step, policy)) {
      placed.push(i);
      since = 0;
      unsaved = 0;
    }
  });
  return placed;
}

/** What the hooks keep between looks to take the same rule live (HookMemory.timing). */
export type TimingMemory = {
  /** The newest finished call seen (its id), to find the calls a look has not seen yet. */
  lastCall: string | null;
  /** A file changed since the last checkpoint. */
  unsaved: boolean;
  /** Tasks done at the last look. */
  completed: number;
};

function completedTasks(state: Pick<SessionState, 'tasks' | 'todos'>): number {
  const items = state.tasks.length > 0 ? state.tasks : state.todos;
  return items.filter((i) => i.status === 'completed').length;
}

/**
 * The finished calls a look sees that the last one did not, folded as steps: whether a file
 * changed since the last checkpoint (`unsaved`) and whether one of them changed the work. When
 * the last call seen fell out of the state's recent calls, a file change is assumed (a checkpoint
 * too many, never one too few).
 */
export function observeWork(
  state: Pick<SessionState, 'recentTools' | 'tasks' | 'todos'>,
  memory: TimingMemory | null,
): { memory: TimingMemory; workChange: WorkStep['workChange'] } {
  const calls = state.recentTools;
  const seenAt = memory?.lastCall ? calls.findIndex((c) => c.id === memory.lastCall) : -1;
  const lost = memory?.lastCall != null && seenAt < 0;
  const fresh = calls.slice(seenAt + 1);
  const completed = completedTasks(state);
  const taskCompleted = completed > (memory?.completed ?? 0);
  let unsaved = (memory?.unsaved ?? false) || lost;
  let workChange = fresh.length === 0 && taskCompleted;
  fresh.forEach((call, i) => {
    const step = workStepOf(call, taskCompleted && i === fresh.length - 1);
    if (step.edit) unsaved = true;
    if (step.workChange) workChange = true;
  });
  return {
    memory: {
      lastCall: calls[calls.length - 1]?.id ?? memory?.lastCall ?? null,
      unsaved,
      completed,
    },
    workChange,
  };
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
