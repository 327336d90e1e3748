/**
 * The handoff written when a session's turn ends on a usage or rate limit (StopFailure, or the
 * transcript's error entry at SessionEnd): a checkpoint of the session as it stopped, a handoff
 * document that names the limit and its reset, recorded so that the next session in the project
 * (or this one, resumed) picks it up once.
 * @module
 */
import { readFileSync } from 'node:fs';
import { describeLimitStop, findLimitLine, readLimitStop } from '../../core/policy/limit-stop.ts';
import { formatDuration, type ResumeDetection } from '../../core/resume/resume.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { Env } from '../../store/home/home.ts';
import type { HandoffRecord } from '../../store/ports/handoffs.ts';
import { createCheckpoint } from '../checkpoint/create-checkpoint.ts';
import { withStore, type Store } from '../open-store.ts';
import type { SessionLog } from '../session/session-log.ts';
import { writeHandoff } from '../write-handoff.ts';

export type LimitHandoffRequest = {
  home: string;
  env: Env;
  /** The session's log and its agent. */
  log: SessionLog;
  cwd: string;
  /** What the agent said (the error entry's text, or StopFailure's details). */
  errorText: string;
  now: number;
};

export async function writeLimitHandoff(
  request: LimitHandoffRequest,
): Promise<{ path: string; line: string; checkpoint: Checkpoint }> {
  const { checkpoint } = await createCheckpoint({
    log: request.log,
    cwd: request.cwd,
    env: request.env,
    home: request.home,
    now: request.now,
    trigger: 'session_end',
    reason: 'the turn ended on a usage limit',
    hotPath: true,
  });
  const line = describeLimitStop(readLimitStop(request.errorText, request.now));
  const written = await withStore(request.home, (store) =>
    writeHandoff(store, request.home, {
      checkpoint,
      kind: 'usage_limit',
      detection: null,
      now: request.now,
      preface: line,
    }),
  );
  return { path: written.path, line, checkpoint };
}

/** How a picked-up usage-limit handoff is framed for the next session. */
export function limitDetection(
  handoff: HandoffRecord,
  checkpoint: Checkpoint,
  now: number,
): ResumeDetection {
  const age = Math.max(0, now - Date.parse(handoff.createdAt));
  let line: string | null;
  try {
    line = findLimitLine(readFileSync(handoff.path, 'utf8'));
  } catch {
    line = null; // the document was removed: the checkpoint still carries the state
  }
  return {
    shouldResume: true,
    lastCheckpointId: checkpoint.id,
    interruptionReason: 'usage_limit',
    timeSinceInterruption: age,
    confidence: 0.95,
    explanation: `${line ?? 'Stopped at a usage limit.'} shim wrote the handoff ${formatDuration(age)} ago; it is picked up once.`,
  };
}

/** The resumed session's own usage-limit handoff, taken once; null when there is none. */
export function takeOwnLimitHandoff(
  store: Store,
  sessionId: string,
  now: number,
): { checkpoint: Checkpoint; detection: ResumeDetection } | null {
  const handoff = store.handoffs.getPendingLimitHandoff(sessionId);
  if (!handoff) return null;
  const checkpoint = store.checkpoints.getById(handoff.checkpointId);
  if (!checkpoint) return null;
  if (!store.handoffs.markPickedUp(handoff.id, sessionId, new Date(now).toISOString())) return null;
  return { checkpoint, detection: limitDetection(handoff, checkpoint, now) };
}
