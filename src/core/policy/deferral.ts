/**
 * "Just one more task" (seed 004, risks table: "allow user to defer L1/L2"): the user holds the
 * L1/L2 notices back while they finish the task in hand. Checkpoints are still taken — only
 * what interrupts (the notice, the note to the model, the L2 handoff, the Stop suggestion) waits.
 * The deferral ends by itself at L3, when the task in progress at the time completes (with no
 * task list: at the next milestone — a task completed, a commit, the tests passing again), or at
 * a compaction; the notice held back is given then, once. Pure.
 * @module
 */
import type { Level } from '../context/level.ts';
import type { SessionState } from '../session.ts';
import { fnvHash } from '../fnv-hash.ts';

export type Deferral = {
  /** Epoch ms the user deferred. */
  at: number;
  /**
   * The task in progress then, or null for none: its id (task lists that have ids), a hash of
   * its text (to find it again in a list without ids) and its text as shown (redacted).
   */
  task: { id: string | null; key: string; content: string } | null;
  /** Compactions of the session then: a compaction ends the deferral. */
  epoch: number;
  /** The highest notice held back so far. */
  held: 'L1' | 'L2' | null;
};

/** Why a deferral ended. */
export type DeferralEnd = 'L3' | 'task done' | 'milestone' | 'compaction';

/** The task in progress in `state` (the newer task list when the session has one). */
export function taskInProgress(state: SessionState): Deferral['task'] {
  if (state.tasks.length > 0) {
    const task = state.tasks.find((t) => t.status === 'in_progress');
    return task ? { id: task.id, key: fnvHash(task.subject), content: task.subject } : null;
  }
  const todo = state.todos.find((t) => t.status === 'in_progress');
  return todo ? { id: null, key: fnvHash(todo.content), content: todo.content } : null;
}

export function startDeferral(state: SessionState, now: number): Deferral {
  return { at: now, task: taskInProgress(state), epoch: state.compactionCount, held: null };
}

const DONE = new Set(['completed', 'deleted']);

/** Whether the deferral's task is done (gone from the list counts: it was replaced or removed). */
function isTaskDone(task: NonNullable<Deferral['task']>, state: SessionState): boolean {
  if (state.tasks.length > 0 && task.id !== null) {
    const now = state.tasks.find((t) => t.id === task.id);
    return now === undefined || DONE.has(now.status);
  }
  const now = state.todos.find((t) => fnvHash(t.content) === task.key);
  return now === undefined || DONE.has(now.status);
}

/**
 * Why `deferral` ends at this look, or null while it holds. `milestone`: the milestone this look
 * found (hook-policy.ts), which ends a deferral made with no task in progress.
 */
export function deferralEnd(
  deferral: Deferral,
  state: SessionState,
  level: Level,
  milestone: string | null,
): DeferralEnd | null {
  if (level === 'L3') return 'L3';
  if (state.compactionCount !== deferral.epoch) return 'compaction';
  if (deferral.task) return isTaskDone(deferral.task, state) ? 'task done' : null;
  return milestone ? 'milestone' : null;
}

/** What the deferral waits for, in words ("until "Write the parser" is done"). */
export function describeDeferral(deferral: Pick<Deferral, 'task'>): string {
  return deferral.task
    ? `until "${deferral.task.content}" is done`
    : 'until the next finished task, commit or passing test run';
}

/** The line that goes before the notice given when the deferral ends. */
export function releasedNote(end: DeferralEnd, deferral: Deferral): string {
  switch (end) {
    case 'L3':
      return 'shim: the deferred notices are back: the context reached L3.';
    case 'compaction':
      return 'shim: the deferral ended with the compaction.';
    case 'task done':
      return `shim: "${deferral.task?.content ?? 'the task'}" is done; the notice held back for it follows.`;
    case 'milestone':
      return 'shim: the step you deferred for is done; the notice held back for it follows.';
    default:
      return end satisfies never;
  }
}

const RANK: Record<Level, number> = { L0: 0, L1: 1, L2: 2, L3: 3 };

export type DeferralStep = {
  /** The level to alert about now (null: none, or held back). */
  shown: Level | null;
  /** The deferral after this look: the same, one with a notice held, or null when it ended. */
  deferral: Deferral | null;
  /** Set when it ended: the line that goes before the notice given now. */
  released: string | null;
};

/**
 * One look under a deferral: `alert` is the level newly reached (hook-policy.ts). While the
 * deferral holds, an L1/L2 alert is held back; when it ends, the notice held back is given for
 * the level the context stands at (once: the hooks' claims keep it so).
 */
export function stepDeferral(
  deferral: Deferral | null,
  alert: Level | null,
  state: SessionState,
  level: Level,
  milestone: string | null,
): DeferralStep {
  if (!deferral) return { shown: alert, deferral: null, released: null };
  const end = deferralEnd(deferral, state, level, milestone);
  if (end) {
    const due = deferral.held !== null && end !== 'compaction' && level !== 'L0';
    return {
      shown: alert ?? (due ? level : null),
      deferral: null,
      released: deferral.held !== null || end === 'L3' ? releasedNote(end, deferral) : null,
    };
  }
  if (alert === 'L1' || alert === 'L2') {
    const held = deferral.held && RANK[deferral.held] > RANK[alert] ? deferral.held : alert;
    return { shown: null, deferral: { ...deferral, held }, released: null };
  }
  return { shown: alert, deferral, released: null };
}
