/**
 * Assessing a live session the same way everywhere (status, hooks, statusline, checkpoints,
 * the loop): the user's config, the compaction history learned from their transcripts, and the
 * tool calls since the newest checkpoint.
 * @module
 */
import { assessSession, type Assessment } from '../core/assess.ts';
import type { CompactSample } from '../core/compact-threshold.ts';
import type { SessionState } from '../core/session.ts';
import { loadCompactHistory } from '../claude/compact-history.ts';
import type { ShimConfig } from '../store/config.ts';
import type { Env } from '../store/home.ts';

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
};

export function assessLiveSession(state: SessionState, request: LiveAssessmentRequest): Assessment {
  const { config } = request;
  const atCheckpoint = request.toolCallsAtCheckpoint ?? null;
  return assessSession(state, {
    env: request.env,
    history: getHistorySamples(request.home, request.env, config, {
      ...(request.history !== undefined ? { enabled: request.history } : {}),
      ...(request.hotPath ? { hotPath: true } : {}),
    }),
    now: request.now,
    levels: config.levels,
    risk: config.risk,
    ...(request.reportedWindow != null ? { reportedWindow: request.reportedWindow } : {}),
    // Counted since the newest checkpoint; a count from another transcript (bigger) is ignored.
    ...(atCheckpoint !== null && atCheckpoint <= state.toolCalls
      ? { toolCallsSinceCheckpoint: state.toolCalls - atCheckpoint }
      : {}),
  });
}
