/**
 * After `/clear` with relay on (core/policy/relay.ts): the session that was cleared is the newest other
 * session of the project; its state, rebuilt from its transcript now, is restored into the new
 * context in full.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { relayExplanation } from '../../core/policy/relay.ts';
import type { ResumeDetection } from '../../core/resume/resume.ts';
import { findProjectRoot } from '../../capture/project.ts';
import type { Agents } from '../../agents/agent.ts';
import { agentNamed } from '../session/session-log.ts';
import type { Env } from '../../store/home/home.ts';
import type { Store } from '../open-store.ts';
import { checkpointFromLiveTranscript, recordRestore } from './restore-session.ts';

export async function relayAfterClear(
  store: Store,
  request: {
    sessionId: string;
    /** Every agent: the cleared session's reads its log. */
    agents: Agents;
    cwd: string;
    home: string;
    env: Env;
    now: number;
    /** The text the relay injects: recorded with the restore and scored for what it carried. */
    render: (checkpoint: Checkpoint, detection: ResumeDetection) => string;
  },
): Promise<{ checkpoint: Checkpoint; detection: ResumeDetection; text: string } | null> {
  const root = findProjectRoot(request.cwd);
  const cleared = store.sessions.getLatestInProject(root, request.sessionId);
  if (cleared === null) return null;
  const latest = store.checkpoints.getMostRecent(cleared.sessionId);
  const transcriptPath = cleared.transcriptPath ?? latest?.source.transcriptPath ?? null;
  if (transcriptPath === null && latest === null) return null;
  const agent = await agentNamed(cleared.agent, request.agents);
  if (agent === null) return null;
  const { checkpoint } = await checkpointFromLiveTranscript({
    store,
    agent,
    home: request.home,
    env: request.env,
    now: request.now,
    transcriptPath,
    latest,
    trigger: 'user_requested',
    cwd: request.cwd,
  });
  const detection: ResumeDetection = {
    shouldResume: true,
    lastCheckpointId: checkpoint.id,
    interruptionReason: 'relay',
    timeSinceInterruption: 0,
    confidence: 1,
    explanation: relayExplanation(cleared.sessionId),
  };
  const text = request.render(checkpoint, detection);
  recordRestore(store, {
    checkpoint,
    intoSession: request.sessionId,
    detection,
    now: request.now,
    notes: 'SessionStart clear (relay)',
    restoreText: text,
    messagesAtRestore: 0,
  });
  return { checkpoint, detection, text };
}
