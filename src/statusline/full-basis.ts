/**
 * The statusline's basis from a full look: the transcript folded through the cursor cache and
 * assessed. Its own bundle (dist/statusline-full.cjs), loaded only by renders outside the hooks'
 * quiet window.
 * @module
 */
import { assessLiveSession } from '../app/session/assess-live-session.ts';
import { loadSessionState } from '../app/session/read-session.ts';
import { viewOf, type QuietView } from '../core/policy/quiet-window.ts';
import { createSessionState } from '../core/session.ts';
import type { ShimConfig } from '../store/config/config.ts';
import type { Env } from '../store/home/home.ts';
import type { Agent } from '../agents/agent.ts';

/** The basis for `agent`'s statusline (src/entries/statusline-full.ts hands its agent in). */
export async function assessForStatusline(
  agent: Agent,
  request: {
    transcript: string | null;
    home: string;
    env: Env;
    now: number;
    config: ShimConfig;
    /** The agent's own figures from the statusline input. */
    reported: { tokens: number | null; window: number | null };
  },
): Promise<QuietView | null> {
  const { transcript, home, reported } = request;
  const state = transcript
    ? await loadSessionState(transcript, home, agent).catch(() => null)
    : null; // not written yet
  if (!state && reported.tokens === null) return null;
  const assessment = assessLiveSession(agent, state ?? createSessionState(agent.id), {
    home,
    env: request.env,
    now: request.now,
    config: request.config,
    hotPath: true,
    inside: 'statusline',
    reportedWindow: reported.window,
  });
  // The agent's own figure wins: the transcript may lag behind the last response.
  return viewOf(assessment, reported.tokens ?? assessment.contextTokens);
}
