/**
 * Assessing a live session the same way everywhere (status, hooks, statusline, checkpoints,
 * the loop): the user's config, the compaction history learned from their transcripts, and the
 * tool calls since the newest checkpoint.
 * @module
 */
import { agentThresholdFor } from './load-agent.ts';
import { assessSession, type Assessment } from '../../core/context/assess.ts';
import type { CompactSample } from '../../core/compact-threshold.ts';
import type { SessionState } from '../../core/session.ts';
import { loadCompactHistory } from '../../agents/claude/compact-history.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import { pickThresholdEnv } from '../../core/compact-window.ts';
import type { Env } from '../../store/home/home.ts';
import { appendLog } from '../../store/home/log.ts';
import { loadGrowthProfile } from '../../store/estimates/growth-profile.ts';
import { recordInputs } from '../../agents/claude/recorded-inputs.ts';
import { readStatuslineFigures } from '../../store/cache/statusline-figures.ts';
import type { HookMemory } from '../../core/policy/hook-policy.ts';
import { getThresholdInputs, type ThresholdInputs } from '../../agents/claude/threshold-inputs.ts';

export type HistoryOptions = {
  /** Override config.learnFromHistory (`--history` / `--no-history`). */
  enabled?: boolean;
  /**
   * Per-call paths (hooks, statusline) take the cached history at any age: refreshing it
   * scans every transcript, which is for the CLI and SessionStart, not for every tool call.
   */
  hotPath?: boolean;
};

export function getHistorySamples(
  home: string,
  env: Env,
  config: ShimConfig,
  options: HistoryOptions = {},
): CompactSample[] {
  if (!(options.enabled ?? config.learnFromHistory)) return [];
  return loadCompactHistory(home, {
    env,
    ...(options.hotPath ? { maxAgeMs: Number.POSITIVE_INFINITY } : {}),
  });
}

export type LiveAssessmentRequest = {
  home: string;
  env: Env;
  now: number;
  config: ShimConfig;
  /** Learn from history: the config's choice unless given. */
  history?: boolean;
  hotPath?: boolean;
  /** The window Claude Code reported (statusline), when known. */
  reportedWindow?: number | null;
  /** Tool calls the session had made at its newest checkpoint; null when there is none. */
  toolCallsAtCheckpoint?: number | null;
  /** Hooks and the statusline run inside Claude Code: they record what they resolved. */
  insideClaudeCode?: 'hook' | 'statusline';
  /** Where Claude Code's managed settings are (tests); the platform's place otherwise. */
  managedSettingsPath?: string;
};

export type LiveAssessment = Assessment & {
  /** Where the threshold's environment and settings came from. */
  inputsSource: ThresholdInputs['source'];
  inputsRecordedAt: number | null;
};

export function assessLiveSession(
  state: SessionState,
  request: LiveAssessmentRequest,
): LiveAssessment {
  const { config } = request;
  const atCheckpoint = request.toolCallsAtCheckpoint ?? null;
  const inside = request.insideClaudeCode !== undefined;
  const inputs = getThresholdInputs({
    home: request.home,
    env: request.env,
    sessionId: state.sessionId,
    cwd: state.cwd,
    insideClaudeCode: inside,
    reportedWindow: request.reportedWindow ?? null,
    ...(request.managedSettingsPath ? { managedSettingsPath: request.managedSettingsPath } : {}),
  });
  const learn = request.history ?? config.learnFromHistory;
  const agentThreshold = agentThresholdFor(state, request.env);
  const assessment = assessSession(state, {
    ...(agentThreshold ? { agentThreshold } : {}),
    env: inputs.env,
    settings: inputs.settings,
    history: getHistorySamples(request.home, request.env, config, {
      enabled: learn,
      ...(request.hotPath ? { hotPath: true } : {}),
    }),
    ...(learn ? { growthProfile: loadGrowthProfile(request.home, state.sessionId) } : {}),
    now: request.now,
    levels: config.levels,
    risk: config.risk,
    ...(inputs.reportedWindow != null ? { reportedWindow: inputs.reportedWindow } : {}),
    // Counted since the newest checkpoint; a count from another transcript (bigger) is ignored.
    ...(atCheckpoint !== null && atCheckpoint <= state.toolCalls
      ? { toolCallsSinceCheckpoint: state.toolCalls - atCheckpoint }
      : {}),
  });
  if (inside && state.sessionId) {
    try {
      recordInputs(
        request.home,
        {
          sessionId: state.sessionId,
          by: request.insideClaudeCode ?? 'hook',
          env: pickThresholdEnv(request.env),
          settings: inputs.settings,
          model: state.model,
          windowTokens: request.reportedWindow ?? null,
          compactThreshold: assessment.compactThreshold,
        },
        request.now,
      );
    } catch (error) {
      appendLog(request.home, 'warn', 'could not record the threshold inputs', {
        error: String(error),
      });
    }
  }
  return {
    ...assessment,
    inputsSource: inputs.source,
    inputsRecordedAt: inputs.recorded?.recordedAt ?? null,
  };
}

/**
 * A session assessed from inside Claude Code (a hook, or the server shim's mod reports to): the
 * window the statusline last reported, and tool calls counted from the hooks' own last
 * checkpoint (the store is not opened on these paths).
 */
export function assessInsideClaudeCode(
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
  return assessLiveSession(state, {
    home,
    env,
    now,
    config,
    hotPath: true,
    insideClaudeCode: 'hook',
    reportedWindow: figures?.windowTokens ?? null,
    toolCallsAtCheckpoint:
      memory && memory.lastCheckpointAt !== null ? memory.toolCallsAtCheckpoint : null,
  });
}
