/**
 * Should a new session resume, from which checkpoint, and why was the last one interrupted?
 * Gathers the evidence (the store's record of the session, the transcript's later history) and
 * lets the pure detector decide.
 * @module
 */
import { existsSync } from 'node:fs';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import {
  detectResume,
  toResumeCheckpointInfo,
  type ResumeDetection,
  type ResumeEvidence,
} from '../../core/resume/resume.ts';
import { isAgentAlive } from '../../capture/agent-process.ts';
import { loadHookMemory } from '../../store/cache/hook-memory.ts';
import { loadSessionState } from '../session/read-session.ts';
import type { Agents } from '../../agents/agent.ts';
import type { Store } from '../open-store.ts';

export type ResumePlan = {
  checkpoint: Checkpoint;
  detection: ResumeDetection;
  evidence: ResumeEvidence;
};

/** What happened after the checkpoint, from the session's transcript when it still exists. */
async function readLaterHistory(checkpoint: Checkpoint, home: string, agents: Agents) {
  const path = checkpoint.source.transcriptPath;
  const none = { compactedAfter: false, lastActivityAt: null, promptTooLong: false };
  if (!path || !existsSync(path)) return none;
  try {
    const agent = await agents.agent(checkpoint.source.agent);
    if (agent.log.isCompressed(path)) return none;
    const state = await loadSessionState(path, home, agent);
    const since = checkpoint.source.transcriptLine;
    return {
      compactedAfter: state.compactions.some((c) => c.line > since),
      lastActivityAt:
        state.lastActivityAt === null ? null : new Date(state.lastActivityAt).toISOString(),
      promptTooLong: state.lastPromptTooLongLine !== null && state.lastPromptTooLongLine > since,
    };
  } catch {
    return { compactedAfter: false, lastActivityAt: null, promptTooLong: false };
  }
}

export async function planResume(
  store: Store,
  checkpoint: Checkpoint,
  home: string,
  now: number,
  agents: Agents,
  options: { resumeWindowDays?: number } = {},
): Promise<ResumePlan> {
  const session = store.sessions.get(checkpoint.sessionId);
  const ended =
    session?.endedAt && session.endedAt >= checkpoint.createdAt
      ? { at: session.endedAt, reason: session.endReason ?? 'other' }
      : null;
  const evidence: ResumeEvidence = {
    checkpoint: toResumeCheckpointInfo(checkpoint, store.checkpoints.getRestoredAt(checkpoint.id)),
    sessionEnded: ended,
    ...(await readLaterHistory(checkpoint, home, agents)),
    agentAlive: ended ? null : isAgentAlive(loadHookMemory(home, checkpoint.sessionId).agentPid),
    now,
  };
  const maxAgeMs =
    options.resumeWindowDays !== undefined ? options.resumeWindowDays * 86_400_000 : undefined;
  return {
    checkpoint,
    detection: detectResume(evidence, maxAgeMs !== undefined ? { maxAgeMs } : {}),
    evidence,
  };
}
