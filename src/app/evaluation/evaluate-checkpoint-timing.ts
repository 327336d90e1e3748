/**
 * Checkpoint timing on real sessions, leave-one-out (issue 43 item 9): each session's tool calls
 * read as work steps (a file change; the work changing — a task completed, a passing test run,
 * a commit), then scored under the count policy (every N calls, shim's default) and under
 * checkpoints where the work changes with a fallback gap learned from the other sessions only,
 * at no more checkpoints than the count policy takes there. Sessions of one id are left out
 * together. core/checkpoint/checkpoint-timing.ts holds the policies and the score.
 * @module
 */
import {
  addScores,
  chooseFallbackGap,
  FALLBACK_GAPS,
  scoreTiming,
  type TimingPolicy,
  type TimingScore,
  type WorkStep,
  workStepOf,
} from '../../core/checkpoint/checkpoint-timing.ts';
import type { SessionState, ToolCallRecord } from '../../core/session.ts';
import type { ReadOptions } from '../../transcript/reader.ts';
import type { SessionLog } from '../session/session-log.ts';

function completedCount(state: SessionState): number {
  const items = state.tasks.length > 0 ? state.tasks : state.todos;
  return items.filter((i) => i.status === 'completed').length;
}

/** Every finished tool call of the log, in order, as a work step (read as the hooks read one). */
export async function readWorkSteps({ path, agent }: SessionLog): Promise<{
  id: string;
  steps: WorkStep[];
}> {
  const steps: WorkStep[] = [];
  const seen = new Set<string>();
  let done = 0;
  // A task marked done (its list's tool call) counts with the next finished call.
  let taskDone = false;
  const onEntry: ReadOptions['onEntry'] = (_entry, _line, state) => {
    const record: ToolCallRecord | undefined = state.recentTools[state.recentTools.length - 1];
    const nowDone = completedCount(state);
    if (nowDone > done) taskDone = true;
    done = nowDone;
    if (!record || seen.has(record.id)) return;
    seen.add(record.id);
    steps.push(workStepOf(record, taskDone));
    taskDone = false;
  };
  const read = { onEntry };
  const state = agent.log.isCompressed(path)
    ? await agent.log.readCompressed(path, read)
    : agent.log.read(path, null, read).cursor.state;
  return { id: state.sessionId ?? path, steps };
}

export type TimingReport = {
  sessions: number;
  toolCalls: number;
  count: TimingScore & { every: number };
  workChange: TimingScore & { gaps: number[] };
  /** The same, skipping a checkpoint while no file changed since the last one. */
  workChangeAfterEdits: TimingScore & { gaps: number[] };
  /** The hooks' own policy (their default settings), fixed: nothing learned per session. */
  hooks: TimingScore & { policy: TimingPolicy };
};

/**
 * `every`: the count policy it replaces (shim's default: every 5 tool calls); `hooks`: the policy
 * the hooks take (core/policy/checkpoint-policy.ts timingPolicyOf).
 */
export async function evaluateCheckpointTiming(
  logs: readonly SessionLog[],
  every = 5,
  hooks: TimingPolicy = { kind: 'count', every },
): Promise<TimingReport> {
  const read: Array<{ id: string; steps: WorkStep[] }> = [];
  for (const log of logs) read.push(await readWorkSteps(log));
  return scoreCheckpointTiming(read, every, hooks);
}

/** {@link evaluateCheckpointTiming} of sessions already read (readWorkSteps); empty ones left out. */
export function scoreCheckpointTiming(
  read: ReadonlyArray<{ id: string; steps: WorkStep[] }>,
  every = 5,
  hooks: TimingPolicy = { kind: 'count', every },
): TimingReport {
  const sessions = read.filter((s) => s.steps.length > 0);
  const count = { kind: 'count', every } as const;
  const countScores = sessions.map((s) => scoreTiming(s.steps, count));
  const learned = (onlyAfterEdits: boolean) => {
    const byGap = sessions.map(
      (s) =>
        new Map(
          FALLBACK_GAPS.map((gap) => [
            gap,
            scoreTiming(s.steps, { kind: 'work-change', fallbackAfter: gap, onlyAfterEdits }),
          ]),
        ),
    );
    const scores: TimingScore[] = [];
    const gaps: number[] = [];
    sessions.forEach((held, i) => {
      const others = sessions.flatMap((s, j) => (s.id === held.id ? [] : [j]));
      const allowed = addScores(others.map((j) => countScores[j]!)).checkpoints;
      const summed = new Map(
        FALLBACK_GAPS.map((gap) => [gap, addScores(others.map((j) => byGap[j]!.get(gap)!))]),
      );
      const gap = chooseFallbackGap(summed, allowed);
      gaps.push(gap);
      scores.push(byGap[i]!.get(gap)!);
    });
    return { ...addScores(scores), gaps };
  };
  return {
    sessions: sessions.length,
    toolCalls: sessions.reduce((n, s) => n + s.steps.length, 0),
    count: { ...addScores(countScores), every },
    workChange: learned(false),
    workChangeAfterEdits: learned(true),
    hooks: { ...addScores(sessions.map((s) => scoreTiming(s.steps, hooks))), policy: hooks },
  };
}
