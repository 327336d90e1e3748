/**
 * What a session starting in a project should inherit, if anything: a handoff the user wrote
 * for it (`shim handoff`, picked up once, even after a clean exit), else the project's previous
 * session when that one was interrupted — rebuilt from its transcript so the newest work is in.
 * Only this project's sessions are considered (the git root of the directory, else the
 * directory): nothing of another project reaches this one.
 * @module
 */
import { existsSync } from 'node:fs';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { formatDuration, type ResumeDetection } from '../../core/resume/resume.ts';
import { isAgentAlive } from '../../capture/agent-process.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { loadHookMemory } from '../../store/cache/hook-memory.ts';
import type { Env } from '../../store/home/home.ts';
import type { Agents } from '../../agents/agent.ts';
import { agentNamed } from '../session/session-log.ts';
import type { Store } from '../open-store.ts';
import { newerTeamWork } from '../team/newer-team-work.ts';
import { planResume } from './plan-resume.ts';
import { limitDetection } from './limit-handoff.ts';
import { loadSessionState } from '../session/read-session.ts';
import {
  checkpointFromLiveTranscript,
  planWithLiveCheckpoint,
  recordRestore,
} from './restore-session.ts';

/** A user's handoff is for the next session: one older than this is stale. */
const HANDOFF_MAX_AGE_MS = 7 * 24 * 3_600_000;

export type StartupRestore = {
  checkpoint: Checkpoint;
  detection: ResumeDetection;
  /**
   * `handoff`: the user's handoff; `interrupted`: the previous session stopped unfinished;
   * `team`: another machine's or teammate's newer unfinished work (the team store's local copy).
   */
  kind: 'handoff' | 'interrupted' | 'team';
  /** What `render` made of it (absent without a `render`). */
  text?: string;
};

export type StartupRequest = {
  sessionId: string;
  /** Every agent: the previous session may be another agent's. */
  agents: Agents;
  cwd: string;
  home: string;
  env: Env;
  now: number;
  /** false: only a handoff the user wrote is picked up (config `restoreAtStartup`). */
  restoreInterrupted?: boolean;
  /** Checkpoints older than this are not resumed (config `resumeWindowDays`). */
  resumeWindowDays?: number;
  /** A team store is connected and `team.resume` is on: its pulled work may be restored. */
  teamResume?: boolean;
  /** The text the restore injects: recorded with it and scored for what it carried. */
  render?: (checkpoint: Checkpoint, detection: ResumeDetection) => string;
};

function handoffDetection(checkpoint: Checkpoint, createdAt: string, now: number): ResumeDetection {
  const age = Math.max(0, now - Date.parse(createdAt));
  return {
    shouldResume: true,
    lastCheckpointId: checkpoint.id,
    interruptionReason: 'handoff',
    timeSinceInterruption: age,
    confidence: 0.95,
    explanation: `The user wrote a handoff for the next session in this project ${formatDuration(age)} ago, so it is picked up once.`,
  };
}

async function takeHandoff(
  store: Store,
  root: string,
  request: StartupRequest,
): Promise<StartupRestore | null> {
  const since = new Date(request.now - HANDOFF_MAX_AGE_MS).toISOString();
  const handoff = store.handoffs.getPendingForProject(root, since);
  if (handoff === null) return null;
  const checkpoint = store.checkpoints.getById(handoff.checkpointId);
  if (checkpoint === null) return null;
  if (
    !store.handoffs.markPickedUp(handoff.id, request.sessionId, new Date(request.now).toISOString())
  )
    return null;
  return {
    checkpoint,
    detection:
      handoff.kind === 'usage_limit'
        ? limitDetection(handoff, checkpoint, request.now)
        : handoffDetection(checkpoint, handoff.createdAt, request.now),
    kind: 'handoff',
  };
}

/**
 * The previous session's newest checkpoint. One that died before its first checkpoint is
 * checkpointed from its transcript now (it may still carry what it inherited); without a
 * transcript, what it was restored from stands in.
 */
async function findPreviousSessionCheckpoint(
  store: Store,
  root: string,
  request: StartupRequest,
): Promise<Checkpoint | null> {
  const previous = store.sessions.getLatestInProject(root, request.sessionId);
  if (previous === null) {
    return store.checkpoints.getMostRecentInProject(root, { excludeSession: request.sessionId });
  }
  const latest = store.checkpoints.getMostRecent(previous.sessionId);
  if (latest !== null || previous.endedAt !== null) return latest;
  // Only a session known to be dead is rebuilt: its process was recorded and is gone.
  if (isAgentAlive(loadHookMemory(request.home, previous.sessionId).agentPid) !== false)
    return null;
  // Its own transcript only: another session's file must not be checkpointed under its name.
  const agent = await agentNamed(previous.agent, request.agents);
  if (
    agent !== null &&
    previous.transcriptPath !== null &&
    existsSync(previous.transcriptPath) &&
    (await loadSessionState(previous.transcriptPath, request.home, agent)).sessionId ===
      previous.sessionId
  ) {
    const live = await checkpointFromLiveTranscript({
      store,
      agent,
      home: request.home,
      env: request.env,
      now: request.now,
      transcriptPath: previous.transcriptPath,
      latest: null,
      trigger: 'crash_recovery',
      cwd: request.cwd,
    });
    return live.checkpoint;
  }
  return previous.resumedFrom ? store.checkpoints.getById(previous.resumedFrom.checkpointId) : null;
}

async function takeInterrupted(
  store: Store,
  root: string,
  request: StartupRequest,
): Promise<StartupRestore | null> {
  const latest = await findPreviousSessionCheckpoint(store, root, request);
  if (latest === null) return null;
  const plan = await planResume(
    store,
    latest,
    request.home,
    request.now,
    request.agents,
    request.resumeWindowDays !== undefined ? { resumeWindowDays: request.resumeWindowDays } : {},
  );
  if (!plan.detection.shouldResume) return null;
  const live = await planWithLiveCheckpoint(plan, {
    store,
    agents: request.agents,
    home: request.home,
    env: request.env,
    now: request.now,
    cwd: request.cwd,
  });
  return { checkpoint: live.checkpoint, detection: live.detection, kind: 'interrupted' };
}

/**
 * The team's newer unfinished work in this project (app/team/newer-team-work.ts), taken once; its
 * checkpoint is stored here so the restore is recorded like any other.
 */
function takeTeamWork(store: Store, root: string, request: StartupRequest): StartupRestore | null {
  if (!request.teamResume) return null;
  const found = newerTeamWork(store, root, request);
  if (found === null) return null;
  const { work, detection } = found;
  if (
    !store.teamWork.take(
      work.projectId,
      work.checkpoint.id,
      request.sessionId,
      new Date(request.now).toISOString(),
    )
  )
    return null;
  const checkpoint =
    store.checkpoints.getById(found.checkpoint.id) ??
    store.checkpoints.save(found.checkpoint).checkpoint;
  return { checkpoint, detection: { ...detection, lastCheckpointId: checkpoint.id }, kind: 'team' };
}

/**
 * Finds what the starting session should inherit and records the restore (once: a restored
 * checkpoint and a picked-up handoff are not offered again). Null when there is nothing.
 */
export async function restoreAtStartup(
  store: Store,
  request: StartupRequest,
): Promise<StartupRestore | null> {
  const root = findProjectRoot(request.cwd);
  const restore =
    (await takeHandoff(store, root, request)) ??
    takeTeamWork(store, root, request) ??
    (request.restoreInterrupted === false ? null : await takeInterrupted(store, root, request));
  if (restore === null) return null;
  const text = request.render?.(restore.checkpoint, restore.detection);
  recordRestore(store, {
    checkpoint: restore.checkpoint,
    intoSession: request.sessionId,
    detection: restore.detection,
    now: request.now,
    notes: `SessionStart startup (${restore.kind})`,
    // A session just started: once it has a message of its own, it went on from the restore
    // (crash and handoff restores were never settled without this).
    messagesAtRestore: 0,
    ...(text !== undefined ? { restoreText: text } : {}),
  });
  return text !== undefined ? { ...restore, text } : restore;
}
