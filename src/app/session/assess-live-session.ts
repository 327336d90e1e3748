/**
 * Assessing a live session the same way everywhere (status, hooks, statusline, checkpoints,
 * the loop): the user's config, the threshold by the session's agent's rule (with the compaction
 * history learned from the user's sessions), and the tool calls since the newest checkpoint.
 * @module
 */
import { assessSession, type Assessment } from '../../core/context/assess.ts';
import type { SessionState } from '../../core/session.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { loadGrowthProfile } from '../../store/estimates/growth-profile.ts';
import { readStatuslineFigures } from '../../store/cache/statusline-figures.ts';
import type { HookMemory } from '../../core/policy/hook-policy.ts';
import type { Agent, ThresholdInputs, ThresholdRequest } from '../../agents/agent.ts';

/**
 * Which history a threshold learns from: none when the user turned learning off; per-call paths
 * (hooks, statusline) take the cached history at any age, since refreshing it scans every
 * session log.
 */
export function historyMode(learn: boolean, hotPath = false): ThresholdRequest['history'] {
  if (!learn) return 'none';
  return hotPath ? 'cached' : 'fresh';
}

export type LiveAssessmentRequest = {
  home: string;
  env: Env;
  now: number;
  config: ShimConfig;
  /** Learn from history: the config's choice unless given. */
  history?: boolean;
  hotPath?: boolean;
  /** The window the agent reported (its statusline), when known. */
  reportedWindow?: number | null;
  /** Tool calls the session had made at its newest checkpoint; null when there is none. */
  toolCallsAtCheckpoint?: number | null;
  /** Hooks and the statusline run inside the agent: its rule may record what it resolved. */
  inside?: 'hook' | 'statusline';
  /** Where the agent's managed settings are (tests); the platform's place otherwise. */
  managedSettingsPath?: string;
};

export type LiveAssessment = Assessment & {
  /** Where the threshold's environment and settings came from. */
  thresholdInputs: ThresholdInputs;
};

export function assessLiveSession(
  agent: Agent,
  state: SessionState,
  request: LiveAssessmentRequest,
): LiveAssessment {
  const { config } = request;
  const atCheckpoint = request.toolCallsAtCheckpoint ?? null;
  const learn = request.history ?? config.learnFromHistory;
  const judge = agent.threshold.prepare(state, {
    env: request.env,
    home: request.home,
    now: request.now,
    history: historyMode(learn, request.hotPath),
    inside: request.inside ?? null,
    reportedWindow: request.reportedWindow ?? null,
    ...(request.managedSettingsPath ? { managedSettingsPath: request.managedSettingsPath } : {}),
  });
  const assessment = assessSession(state, {
    threshold: judge.threshold(state),
    ...(learn ? { growthProfile: loadGrowthProfile(request.home, state.sessionId) } : {}),
    now: request.now,
    levels: config.levels,
    risk: config.risk,
    // Counted since the newest checkpoint; a count from another transcript (bigger) is ignored.
    ...(atCheckpoint !== null && atCheckpoint <= state.toolCalls
      ? { toolCallsSinceCheckpoint: state.toolCalls - atCheckpoint }
      : {}),
  });
  return { ...assessment, thresholdInputs: judge.inputs };
}

/**
 * A session assessed from inside its agent (a hook, or the server shim's mod reports to): the
 * window the agent's statusline last reported, and tool calls counted from the hooks' own last
 * checkpoint (the store is not opened on these paths).
 */
export function assessInsideAgent(
  agent: Agent,
  state: SessionState,
  request: {
    home: string;
    env: Env;
    now: number;
    config: ShimConfig;
    sessionId: string | null;
    memory: HookMemory | null | undefined;
  },
): LiveAssessment {
  const { home, env, now, config, memory } = request;
  const figures = readStatuslineFigures(home, request.sessionId, now);
  return assessLiveSession(agent, state, {
    home,
    env,
    now,
    config,
    hotPath: true,
    inside: 'hook',
    reportedWindow: figures?.windowTokens ?? null,
    toolCallsAtCheckpoint:
      memory && memory.lastCheckpointAt !== null ? memory.toolCallsAtCheckpoint : null,
  });
}
