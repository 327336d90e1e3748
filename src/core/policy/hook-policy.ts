/**
 * What a hook should do after folding the transcript: take a checkpoint (and why), alert the
 * user and the model (once per level reached), or note a milestone. Pure: the hook handler
 * reads and writes the per-session memory this decides from.
 * @module
 */
import type { Assessment } from '../context/assess.ts';
import type { CheckpointTrigger } from '../checkpoint/checkpoint.ts';
import { classifyCheckCommand } from '../checkpoint/check-command.ts';
import type { Level } from '../context/level.ts';
import type { QuietWindow } from './quiet-window.ts';
import { DEFAULT_CHECKPOINT_POLICY, type CheckpointPolicy } from './checkpoint-policy.ts';
import type { SessionState } from '../session.ts';
import type { TranscriptWatch } from './transcript-watch.ts';
import { stepDeferral, type Deferral } from './deferral.ts';
import {
  COMMIT_COMMAND,
  observeWork,
  shellCommandOf,
  type TimingMemory,
} from '../checkpoint/checkpoint-timing.ts';

/** What the hooks remember about a session between processes. */
export type HookMemory = {
  /** Highest level alerted in the current compaction epoch. */
  alertedLevel: Level;
  /** Compactions seen when alertedLevel was set: a compaction starts a new epoch. */
  epoch: number;
  riskSeen: 'safe' | 'warning' | 'danger';
  lastCheckpointAt: number | null;
  toolCallsAtCheckpoint: number;
  /** Tasks all done when last seen (to notice the moment they all complete). */
  tasksDone: boolean;
  /** The last test command failed (so a passing one is a milestone). */
  testsFailing: boolean;
  /** Highest 10% band of the Stop handoff suggestion shown. */
  stopNoticeBand: number;
  /** The Claude Code process the hooks run under (to tell a crash from a session still running). */
  agentPid: number | null;
  /** Tool calls counted from PostToolUse events: the transcript can lag behind the hook. */
  hookToolCalls: number;
  /** While it holds, PostToolUse skips its full look (quiet-window.ts). */
  quiet: QuietWindow | null;
  /** The tracker issue the session works on, as the statusline names it (`ANV-123`). */
  issue?: string | null;
  /** What the session was doing at the last full look (build-checkpoint.ts getPhase). */
  phase?: string | null;
  /** Whether Claude Code still writes the transcript (transcript-watch.ts). */
  transcript?: TranscriptWatch | null;
  /** Compactions PostCompact saw, for the statusline's counter and its first line after one. */
  compactions?: CompactionMark | null;
  /** workSignature() at the last checkpoint (CheckpointPolicy.onWorkChange). */
  workAtCheckpoint?: string | null;
  /** Calls seen and file changes since the last checkpoint (`checkpoints.timing: "changes"`). */
  timing?: TimingMemory | null;
};

export type CompactionMark = {
  /** Compactions of this session so far. */
  count: number;
  at: number;
  /** The context the statusline was last given before the compaction: a figure from before it. */
  staleTokens: number | null;
};

export const EMPTY_HOOK_MEMORY: HookMemory = {
  alertedLevel: 'L0',
  epoch: 0,
  riskSeen: 'safe',
  lastCheckpointAt: null,
  toolCallsAtCheckpoint: 0,
  tasksDone: false,
  testsFailing: false,
  stopNoticeBand: 0,
  agentPid: null,
  hookToolCalls: 0,
  quiet: null,
};

const LEVEL_RANK: Record<Level, number> = { L0: 0, L1: 1, L2: 2, L3: 3 };

/**
 * The memory as of compaction epoch `epoch`: what was alerted before a compaction (levels, risk,
 * the Stop notice's band) says nothing about the context after it.
 */
export function inEpoch(memory: HookMemory, epoch: number): HookMemory {
  if (epoch === memory.epoch) return memory;
  return { ...memory, epoch, alertedLevel: 'L0', riskSeen: 'safe', stopNoticeBand: 0 };
}

export type PlannedCheckpoint = { trigger: CheckpointTrigger; reason: string; urgent: boolean };

export type HookDecision = {
  checkpoint: PlannedCheckpoint | null;
  /** A newly reached level to alert about (once per level per compaction epoch). */
  alert: Level | null;
  memory: HookMemory;
  /** The user's deferral after this look (deferral.ts): null when there is none or it ended. */
  deferral: Deferral | null;
  /** The deferral ended at this look: the line that goes before the notice. */
  released: string | null;
};

function getMilestone(
  state: SessionState,
  memory: HookMemory,
): { reason: string | null; tasksDone: boolean; testsFailing: boolean } {
  const items = state.tasks.length > 0 ? state.tasks : state.todos;
  const tasksDone =
    items.length > 0 && items.every((i) => i.status === 'completed' || i.status === 'deleted');
  const last = state.recentTools[state.recentTools.length - 1];
  let testsFailing = memory.testsFailing;
  let reason: string | null = null;
  if (tasksDone && !memory.tasksDone) reason = 'the task list is finished';
  // Any agent's shell tool, by its fold's reading of the call (not a tool name of one agent's).
  const command = last ? shellCommandOf(last) : null;
  if (last && command !== null) {
    if (COMMIT_COMMAND.test(command) && last.success) reason ??= 'a commit was made';
    if (classifyCheckCommand(command) === 'test') {
      if (last.success && memory.testsFailing) reason ??= 'the tests pass again';
      testsFailing = !last.success;
    }
  }
  return { reason, tasksDone, testsFailing };
}

/** The requests and tasks of a session, as a string that changes when either does. */
export function workSignature(state: SessionState): string {
  const items = state.tasks.length > 0 ? state.tasks : state.todos;
  return `${state.promptCount}|${items.map((i) => `${'id' in i ? i.id : i.content}:${i.status}`).join(',')}`;
}

/**
 * The checkpoint the counters alone call for: every N tool calls, every M minutes with calls
 * since. What the PostToolUse hook still decides while shim's mod watches the session (the hook
 * sees every finished call; the mod's reports can come after the transcript, or not at all once
 * the session ends).
 */
export function dueByCount(
  memory: Pick<HookMemory, 'lastCheckpointAt' | 'toolCallsAtCheckpoint'>,
  toolCalls: number,
  now: number,
  policy: CheckpointPolicy,
): { trigger: CheckpointTrigger; reason: string; urgent: false } | null {
  const callsSince = toolCalls - memory.toolCallsAtCheckpoint;
  if (callsSince >= policy.toolCallInterval) {
    return {
      trigger: 'tool_call_interval',
      reason: `${callsSince} tool calls since the last checkpoint`,
      urgent: false,
    };
  }
  if (
    memory.lastCheckpointAt !== null &&
    now - memory.lastCheckpointAt >= policy.timeIntervalMs &&
    callsSince > 0
  ) {
    return { trigger: 'time_interval', reason: 'time since the last checkpoint', urgent: false };
  }
  return null;
}

/**
 * The checkpoint `timing: "changes"` calls for: where the work changed or after N calls without
 * that, by time too, and each only when a file changed since the last checkpoint (one that saves
 * no work is skipped; checkpoint-timing.ts, the rule `npm run bench` scores).
 */
function dueByChanges(
  memory: HookMemory,
  state: SessionState,
  now: number,
  policy: CheckpointPolicy,
  milestone: string | null,
): { due: HookDecision['checkpoint']; timing: TimingMemory } {
  const work = observeWork(state, memory.timing ?? null);
  if (!work.memory.unsaved) return { due: null, timing: work.memory };
  const due = work.workChange
    ? {
        trigger: 'milestone' as const,
        reason: `${milestone ?? 'the work moved on (a task done, tests passing or a commit)'} after a file change`,
        urgent: false,
      }
    : dueByCount(memory, state.toolCalls, now, policy);
  const reason =
    due?.trigger === 'tool_call_interval' ? `${due.reason}, a file changed since` : due?.reason;
  return { due: due && reason ? { ...due, reason } : null, timing: work.memory };
}

/**
 * A level's checkpoint (L2/L3 and a danger risk's, stored within the call; L1's and a warning
 * risk's, started in the background) is claimed until it has been saved or started, not once:
 * a look that dies in between leaves it to the next one (store/cache/hook-memory.ts
 * claimUntilDone). The others are claimed once; a later one comes soon enough.
 */
export function isClaimedUntilDone(checkpoint: PlannedCheckpoint): boolean {
  return checkpoint.urgent || checkpoint.trigger === 'warning_zone';
}

/**
 * The PostToolUse decision: checkpoint on interval, time, level/risk transitions, milestones
 * (`policy.timing` "changes": where the work changes, only after a file change).
 * Under the user's `deferral` an L1/L2 alert is held back (its checkpoint is still taken) and
 * given when the deferral ends, with the level's checkpoint (and at L2 its handoff).
 */
export function decideAfterToolUse(
  state: SessionState,
  assessment: Assessment,
  memory: HookMemory,
  now: number,
  policy: CheckpointPolicy = DEFAULT_CHECKPOINT_POLICY,
  deferral: Deferral | null = null,
): HookDecision {
  const base = inEpoch(memory, state.compactionCount);
  const next: HookMemory = { ...base };
  const reached =
    LEVEL_RANK[assessment.level] > LEVEL_RANK[base.alertedLevel] ? assessment.level : null;
  if (reached) next.alertedLevel = reached;

  const milestone = getMilestone(state, base);
  next.tasksDone = milestone.tasksDone;
  next.testsFailing = milestone.testsFailing;
  const deferred = stepDeferral(deferral, reached, state, assessment.level, milestone.reason);
  // A level reached (or a notice given at last) takes its level checkpoint.
  const alert = reached ?? deferred.shown;

  let checkpoint: HookDecision['checkpoint'] = null;
  const riskRose =
    assessment.risk !== base.riskSeen &&
    (assessment.risk === 'danger' || (assessment.risk === 'warning' && base.riskSeen === 'safe'));
  next.riskSeen = assessment.risk;
  const byChanges =
    policy.timing === 'changes' ? dueByChanges(base, state, now, policy, milestone.reason) : null;
  const byCount = byChanges ? byChanges.due : dueByCount(base, state.toolCalls, now, policy);
  if (alert === 'L2' || alert === 'L3' || (riskRose && assessment.risk === 'danger')) {
    checkpoint = {
      trigger: 'danger_zone',
      reason: alert ? `context reached ${alert}` : 'crash risk is danger',
      urgent: true,
    };
  } else if (alert === 'L1' || riskRose) {
    checkpoint = {
      trigger: 'warning_zone',
      reason: alert ? 'context reached L1' : 'crash risk is warning',
      urgent: false,
    };
  } else if (milestone.reason && !byChanges) {
    checkpoint = { trigger: 'milestone', reason: milestone.reason, urgent: false };
  } else if (byCount) {
    checkpoint = byCount;
  } else if (base.lastCheckpointAt === null && state.toolCalls > 0) {
    checkpoint = {
      trigger: 'session_start',
      reason: 'first checkpoint of the session',
      urgent: false,
    };
  }
  const work = policy.onWorkChange === true ? workSignature(state) : null;
  if (!checkpoint && work !== null && work !== (base.workAtCheckpoint ?? null))
    checkpoint = {
      trigger: 'milestone',
      reason: 'the requests or tasks changed (shared with the team store)',
      urgent: false,
    };
  if (byChanges) next.timing = byChanges.timing;
  if (checkpoint) {
    next.lastCheckpointAt = now;
    next.toolCallsAtCheckpoint = state.toolCalls;
    if (work !== null) next.workAtCheckpoint = work;
    if (byChanges) next.timing = { ...byChanges.timing, unsaved: false };
  }
  return {
    checkpoint,
    alert: deferred.shown,
    memory: next,
    deferral: deferred.deferral,
    released: deferred.released,
  };
}
