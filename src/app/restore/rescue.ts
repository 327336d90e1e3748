/**
 * `shim rescue`: a session that went over the context limit ("Prompt is too long") cannot go on.
 * Rather than a new session, fork it at the last point that still fits
 * (`claude --resume <id> --resume-session-at <uuid> --fork-session`, 2.1.330) and hand the fork
 * shim's restore of the state after that point: the real conversation up to the fork, the exact
 * state past it. This plans the rescue; the front door starts claude.
 * @module
 */
import { existsSync } from 'node:fs';
import type { AgentAdapter, Agents } from '../../agents/agent.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { AppError } from '../../core/errors.ts';
import { findRescuePoint, type RescuePoint } from '../../core/checkpoint/rescue-point.ts';
import type { ResumeDetection } from '../../core/resume/resume.ts';
import type { Env } from '../../store/home/home.ts';
import { createCheckpoint } from '../checkpoint/create-checkpoint.ts';
import { previewCheckpoint } from '../checkpoint/preview-checkpoint.ts';
import { withStore } from '../open-store.ts';
import { agentNamed, findSessionLog, type SessionLog } from '../session/session-log.ts';
import { renderRestoreFor } from './render-restore.ts';

async function findLog(
  sessionId: string,
  cwd: string,
  env: Env,
  agents: Agents,
): Promise<SessionLog | null> {
  try {
    const log = await findSessionLog({ sessionId, cwd, env }, agents);
    return existsSync(log.path) ? log : null;
  } catch {
    return null;
  }
}

/** The restore the fork starts with: room for it below the limit it was forked under. */
const RESTORE_CHARS = 24_000;

export type RescuePlan = {
  sessionId: string;
  transcriptPath: string;
  point: RescuePoint;
  /** The context the fork point must stay under: the threshold or the blocking limit, less room for the restore. */
  limit: number;
  /** The checkpoint stored for the fork; null in a dry run, which stores nothing. */
  checkpointId: string | null;
  /** The first prompt of the fork: shim's restore, then what to do. */
  prompt: string;
  /** The agent's arguments before the caller's own (the prompt goes last). */
  args: string[];
  /** The agent that forks it. */
  adapter: AgentAdapter;
};

export async function planRescue(request: {
  home: string;
  env: Env;
  cwd: string;
  sessionId?: string | null;
  now: number;
  agents: Agents;
  /** Plan only: the restore is built as it would be and nothing is stored. */
  dryRun?: boolean;
}): Promise<RescuePlan> {
  const { home } = request;
  const session = await withStore(home, ({ sessions }) =>
    request.sessionId
      ? sessions.get(request.sessionId)
      : sessions.getLatestInProject(findProjectRoot(request.cwd)),
  );
  // A session shim's hooks never saw (`shim loop` without hooks installed): its log by id.
  const agent = session ? await agentNamed(session.agent, request.agents) : null;
  const log: SessionLog | null =
    agent && session?.transcriptPath && existsSync(session.transcriptPath)
      ? { path: session.transcriptPath, agent }
      : request.sessionId
        ? await findLog(request.sessionId, request.cwd, request.env, request.agents)
        : null;
  if (!log) {
    throw new AppError(
      'SESSION_NOT_FOUND',
      request.sessionId
        ? `no log of session ${request.sessionId} is known to shim`
        : 'no session of this project is known to shim',
      'give the session with --session <id> (its log must still exist where its agent keeps it)',
    );
  }
  const adapter = await request.agents.adapter(log.agent.id);
  const fork = adapter.headless.fork;
  if (!fork) {
    throw new AppError(
      'RESCUE_UNSUPPORTED',
      `${adapter.name} cannot resume a session forked at an earlier message`,
      'start a new session instead: `shim resume --print --for <agent>` restores its state into it',
    );
  }
  const transcriptPath = log.path;
  const sessionId = session?.sessionId ?? request.sessionId!;
  const checkpointRequest = {
    log,
    cwd: session?.cwd ?? request.cwd,
    env: request.env,
    home,
    now: request.now,
    trigger: 'crash_recovery',
    reason: 'rescued over the context limit',
    interrupted: true,
  } as const;
  const saved = request.dryRun
    ? await previewCheckpoint(checkpointRequest)
    : await createCheckpoint(checkpointRequest);
  // Below where the agent refuses to send (or compacts), with room for the restore itself.
  const a = saved.assessment;
  const limit =
    Math.min(a.compactThreshold, a.blockingLimit ?? a.windowTokens) - Math.ceil(RESTORE_CHARS / 3);
  const chain = fork.chain(transcriptPath);
  const point = findRescuePoint(chain.entries, limit);
  if (!point) {
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `session ${sessionId} has no point below ${limit} tokens to fork at`,
      'start a new session instead: `shim resume` restores its state into it',
    );
  }
  const refused = chain.entries.some((e) => e.kind === 'refused');
  const detection: ResumeDetection = {
    shouldResume: true,
    lastCheckpointId: request.dryRun ? null : saved.checkpoint.id,
    interruptionReason: 'crash',
    timeSinceInterruption: 0,
    confidence: 1,
    explanation: `${refused ? 'The session went over the context limit ("Prompt is too long")' : 'The session was rescued'}; this fork keeps its conversation up to the last point that fits (${point.contextTokens} tokens, ${point.entriesDropped} later entries left out). The state below is exact as of the end of the session: carry on from it.`,
  };
  const restore = renderRestoreFor(saved.checkpoint, detection, adapter, {
    maxChars: RESTORE_CHARS,
  });
  return {
    sessionId,
    transcriptPath,
    point,
    limit,
    checkpointId: request.dryRun ? null : saved.checkpoint.id,
    prompt: `${restore}\n\nCarry on with the work from the state above.`,
    args: fork.args(sessionId, point.uuid),
    adapter,
  };
}
