/**
 * Restoring a session into the one that starts after it: after a compaction (the same session
 * carries on) or at startup after a crash, or from a handoff the user wrote.
 *
 * The stored checkpoint can be minutes old when the session died — background checkpoints come
 * every few tool calls — while its transcript on disk holds everything up to the last complete
 * line: the task created a second before, the command that was running. So the restore folds
 * the transcript and, when it holds more than the newest checkpoint, stores a fresh checkpoint
 * from it (`crash_recovery`, or `pre_compact` for a compaction) and restores that one.
 * @module
 */
import { overallShare, scoreCarried } from '../../core/resume/carried-items.ts';
import { existsSync } from 'node:fs';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import type { ResumeDetection } from '../../core/resume/resume.ts';
import type { Env } from '../../store/home/home.ts';
import type { Agent, Agents } from '../../agents/agent.ts';
import { createCheckpoint } from '../checkpoint/create-checkpoint.ts';
import type { Store } from '../open-store.ts';
import { loadSessionState } from '../session/read-session.ts';
import { withCallsStarted } from '../session/calls-started.ts';
import type { ResumePlan } from './plan-resume.ts';

export type LiveCheckpointRequest = {
  store: Store;
  /** The agent whose log `transcriptPath` is. */
  agent: Agent;
  home: string;
  env: Env;
  now: number;
  /** The session to restore: its transcript, and its newest stored checkpoint if any. */
  transcriptPath: string | null;
  latest: Checkpoint | null;
  /** user_requested: a relay after /clear. */
  trigger: 'crash_recovery' | 'pre_compact' | 'user_requested';
  /** Where to run git when the transcript's own directory is gone. */
  cwd: string;
};

export type LiveCheckpoint = {
  checkpoint: Checkpoint;
  /** True when a new checkpoint was built from the transcript; false when `latest` was current. */
  fresh: boolean;
};

/**
 * True when the checkpoint already covers every line of conversation the transcript has, and
 * every call the hooks saw start that the log does not hold (`started`: their pending ids).
 */
function isCurrent(
  checkpoint: Checkpoint,
  path: string,
  lastContentLine: number,
  started: readonly string[],
): boolean {
  const pending = new Set(checkpoint.toolState.pendingOperations.map((op) => op.id));
  return (
    checkpoint.source.transcriptPath === path &&
    checkpoint.source.transcriptLine >= lastContentLine &&
    started.every((id) => pending.has(id))
  );
}

/** The newest state of the session: its transcript when that holds more than `latest`. */
export async function checkpointFromLiveTranscript(
  request: LiveCheckpointRequest,
): Promise<LiveCheckpoint> {
  const { latest, transcriptPath: path, agent } = request;
  if (path === null || !existsSync(path) || agent.log.isCompressed(path)) {
    if (latest) return { checkpoint: latest, fresh: false };
    throw new AppError(
      'CHECKPOINT_NOT_FOUND',
      `the session has no checkpoint and its transcript ${path ?? '(unknown)'} is gone`,
      'nothing can be restored for it',
    );
  }
  const { state, added } = withCallsStarted(
    await loadSessionState(path, request.home, agent),
    agent,
    request.home,
  );
  if (latest && isCurrent(latest, path, state.lastContentLine, added)) {
    return { checkpoint: latest, fresh: false };
  }
  const result = await createCheckpoint({
    log: { path, agent },
    cwd: request.cwd,
    env: request.env,
    home: request.home,
    now: request.now,
    trigger: request.trigger,
    reason:
      request.trigger === 'crash_recovery'
        ? 'restored from the transcript the stopped session left'
        : request.trigger === 'user_requested'
          ? 'the state handed to a fresh context (relay)'
          : 'the state as the compaction began',
    interrupted: request.trigger === 'crash_recovery',
    store: request.store,
  });
  return { checkpoint: result.checkpoint, fresh: true };
}

/**
 * A resume plan brought up to what the stopped session's transcript holds: the hook's startup
 * restore and `shim resume` read the same, so both show the task created a second before the
 * crash and the command that was running. A plan that does not resume is left as it is.
 */
export async function planWithLiveCheckpoint(
  plan: Pick<ResumePlan, 'checkpoint' | 'detection'>,
  request: Omit<LiveCheckpointRequest, 'transcriptPath' | 'latest' | 'trigger' | 'agent'> & {
    agents: Agents;
  },
): Promise<{ checkpoint: Checkpoint; detection: ResumeDetection; fresh: boolean }> {
  if (!plan.detection.shouldResume) return { ...plan, fresh: false };
  const { agents, ...rest } = request;
  const live = await checkpointFromLiveTranscript({
    ...rest,
    // The stopped session's own agent reads its log.
    agent: await agents.agent(plan.checkpoint.source.agent),
    transcriptPath: plan.checkpoint.source.transcriptPath,
    latest: plan.checkpoint,
    trigger: 'crash_recovery',
  });
  return {
    checkpoint: live.checkpoint,
    detection: {
      ...plan.detection,
      lastCheckpointId: live.checkpoint.id,
      explanation: live.fresh
        ? `${plan.detection.explanation} Its transcript held more than that checkpoint, so checkpoint #${live.checkpoint.checkpointNumber} was built from it.`
        : plan.detection.explanation,
    },
    fresh: live.fresh,
  };
}

/** Records a restore into `sessionId`, and — for another session — where that session came from. */
export function recordRestore(
  store: Store,
  restore: {
    checkpoint: Checkpoint;
    intoSession: string;
    detection: ResumeDetection;
    now: number;
    notes: string;
    /** The text injected, scored against the checkpoint (and the agent's summary, if any). */
    restoreText?: string;
    compactSummary?: string | null;
    /** Messages in the receiving session now (0 for a new session). */
    messagesAtRestore?: number;
    /** The user asked for it (shim resume --record), rather than shim on its own. */
    userConfirmed?: boolean;
  },
): void {
  const at = new Date(restore.now).toISOString();
  const { checkpoint } = restore;
  store.resumes.record({
    checkpointId: checkpoint.id,
    sessionId: restore.intoSession,
    restoredAt: at,
    interruptionReason: restore.detection.interruptionReason,
    timeSinceCheckpoint: Math.max(0, restore.now - Date.parse(checkpoint.createdAt)),
    resumeConfidence: restore.detection.confidence,
    notes: restore.notes,
    ...(restore.restoreText !== undefined
      ? { fidelityScore: overallShare(scoreCarried(checkpoint, restore.restoreText)) }
      : {}),
    ...(restore.compactSummary
      ? { claudeFidelityScore: overallShare(scoreCarried(checkpoint, restore.compactSummary)) }
      : {}),
    messagesAtRestore: restore.messagesAtRestore ?? null,
    userConfirmed: restore.userConfirmed ?? false,
  });
  if (checkpoint.sessionId !== restore.intoSession) {
    store.sessions.setResumedFrom(
      restore.intoSession,
      { sessionId: checkpoint.sessionId, checkpointId: checkpoint.id },
      at,
    );
  }
}
