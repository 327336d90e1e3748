/**
 * A session's lineage for the dashboard: the chain of sessions that continue one another
 * (core/checkpoint/session-chain.ts), each link with what shim carried across it — the requests, the open
 * tasks and the files of the checkpoint that was restored — and the chain's goal: the first
 * request the chain started with, which a resumed session's own first words ("continue") are not.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { isOpenTaskStatus } from '../../core/checkpoint/checkpoint.ts';
import { traceSessionChain, type ChainStep } from '../../core/checkpoint/session-chain.ts';
import { withStore, type Store } from '../open-store.ts';

const GOAL_CHARS = 200;
const TASKS_SHOWN = 5;

export type CarriedAcross = {
  requests: number;
  openTasks: string[];
  openTaskCount: number;
  files: number;
};

export type LineageStep = {
  sessionId: string;
  part: number;
  project: string | null;
  startedAt: string | null;
  /** How the step was reached: null for the chain's first. */
  via: {
    reason: string;
    /** The reason in the words a user knows ("crashed, resumed"). */
    label: string;
    at: string;
    checkpointId: string;
    carried: CarriedAcross | null;
  } | null;
};

export type SessionLineage = {
  sessionId: string;
  goal: string | null;
  steps: LineageStep[];
};

const LABELS: Record<string, string> = {
  compaction: 'compacted, restored',
  crash: 'crashed, resumed',
  handoff: 'handed off',
  loop_restart: 'loop restart',
  timeout: 'timed out, resumed',
  manual_exit: 'exited, resumed',
  clear: 'cleared, restored',
  relay: 'cleared, relayed',
};

export function describeReason(reason: string): string {
  return LABELS[reason] ?? 'continued';
}

function carriedBy(checkpoint: Checkpoint | null): CarriedAcross | null {
  if (!checkpoint) return null;
  const open = checkpoint.taskState.items.filter((i) => isOpenTaskStatus(i.status));
  return {
    requests: checkpoint.conversationState.userRequests.length,
    openTasks: open.slice(0, TASKS_SHOWN).map((i) => i.content),
    openTaskCount: open.length,
    files: new Set([...checkpoint.fileState.modifiedFiles, ...checkpoint.fileState.stagedFiles])
      .size,
  };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, GOAL_CHARS);

/**
 * The first checkpoint carried across was taken where the chain began: its first request
 * (inherited ones come first) is the goal; "continue" in a later session is not.
 */
function goalOfChain(
  steps: readonly ChainStep[],
  load: (checkpointId: string) => Checkpoint | null,
  newestOf: (sessionId: string) => Checkpoint | null,
): string | null {
  const firstLink = steps.find((s) => s.via !== null)?.via ?? null;
  const origin = firstLink
    ? load(firstLink.checkpointId)
    : steps[0]
      ? newestOf(steps[0].sessionId)
      : null;
  const first = origin?.conversationState.userRequests[0];
  return first ? oneLine(first) : null;
}

/**
 * The goals of the chains the given sessions continue (sessions restored from another one only):
 * what the dashboard shows instead of a resumed session's own first words.
 */
export function findInheritedGoals(
  store: Store,
  sessionIds: readonly string[],
): Map<string, string> {
  const links = store.dashboard.listRestoreLinks();
  const restored = new Set(
    links
      .filter((l) => l.fromSession !== null && l.fromSession !== l.intoSession)
      .map((l) => l.intoSession),
  );
  const goals = new Map<string, string>();
  for (const id of sessionIds) {
    if (!restored.has(id)) continue;
    const goal = goalOfChain(
      traceSessionChain(id, links),
      (checkpointId) => store.checkpoints.getById(checkpointId),
      (sessionId) => store.checkpoints.getMostRecent(sessionId),
    );
    if (goal) goals.set(id, goal);
  }
  return goals;
}

export async function viewSessionLineage(home: string, sessionId: string): Promise<SessionLineage> {
  return withStore(home, (store) => {
    const steps = traceSessionChain(sessionId, store.dashboard.listRestoreLinks());
    const sessions = new Map(store.sessions.list().map((s) => [s.sessionId, s]));
    const checkpoints = new Map<string, Checkpoint | null>();
    const load = (id: string) => {
      if (!checkpoints.has(id)) checkpoints.set(id, store.checkpoints.getById(id));
      return checkpoints.get(id) ?? null;
    };
    const goal = goalOfChain(steps, load, (id) => store.checkpoints.getMostRecent(id));
    return {
      sessionId,
      goal,
      steps: steps.map((step) => {
        const record = sessions.get(step.sessionId);
        return {
          sessionId: step.sessionId,
          part: step.part,
          project: record?.cwd ?? null,
          startedAt: record?.startedAt ?? null,
          via: step.via
            ? {
                reason: step.via.reason,
                label: describeReason(step.via.reason),
                at: step.via.restoredAt,
                checkpointId: step.via.checkpointId,
                carried: carriedBy(load(step.via.checkpointId)),
              }
            : null,
        };
      }),
    };
  });
}
