/**
 * The one pipeline every front door calls: session model → context size, threshold, level,
 * forecast, signals and risk.
 * @module
 */
import type { CompactThreshold, ThresholdSource } from './threshold.ts';
import { forecastCompaction, withMinimumBasis, type Forecast } from './forecast.ts';
import {
  DEFAULT_LEVEL_THRESHOLDS,
  getLevel,
  toPercent,
  type Level,
  type LevelThresholds,
} from './level.ts';
import {
  assessCrashRisk,
  DEFAULT_RISK_THRESHOLDS,
  type CrashRisk,
  type RiskThresholds,
} from './risk.ts';
import { getLatestResponse, getLiveResponses, type SessionState } from '../session.ts';
import { computeSignals, getSessionDuration, type CrashSignals } from './signals.ts';

export type AssessOptions = {
  /** Where the session compacts, as its agent's rule resolved it (AgentAdapter.threshold). */
  threshold: CompactThreshold;
  /** Epoch ms "now": the wall clock live, the current line's timestamp in a replay. */
  now: number;
  levels?: LevelThresholds;
  risk?: RiskThresholds;
  /** Without a checkpoint store, the calls since the last compaction count. */
  toolCallsSinceCheckpoint?: number;
  /** Evaluation baselines only: this threshold instead of the resolved one. */
  fixedThreshold?: number;
  /** Growth steps from the user's other sessions, for the forecast's interval. */
  growthProfile?: readonly number[];
};

export type ContextSource = 'usage' | 'post-compact' | 'none';

export type Assessment = {
  /** Measured: input + cache_creation + cache_read tokens of the newest main-chain response. */
  contextTokens: number;
  contextSource: ContextSource;
  /** contextTokens plus an estimate of what was appended since that response. */
  estimatedContextTokens: number;
  windowTokens: number;
  compactThreshold: number;
  thresholdSource: ThresholdSource;
  thresholdDetail: string;
  /** The rule set that applied: a Claude Code era ("2.1.43+"), "agent" for a fixed rule. */
  era: string;
  /** Where the agent refuses to send ("prompt too long" guard); null where not known. */
  blockingLimit: number | null;
  /** The agent's own "context low" warning point; null where not known. */
  nativeWarningAt: number | null;
  autoCompact: boolean;
  /** contextTokens / compactThreshold × 100. */
  percent: number;
  /** contextTokens / windowTokens × 100. */
  windowPercent: number;
  level: Level;
  forecast: Forecast;
  risk: CrashRisk;
  riskFactors: string[];
  signals: CrashSignals;
  /** The agent refused a turn as over its window ("Prompt is too long") since the last compaction. */
  contextLimitHit: boolean;
};

function getContext(state: SessionState): { tokens: number; source: ContextSource } {
  if (state.postCompactTokens !== null && state.current === null) {
    return { tokens: state.postCompactTokens, source: 'post-compact' };
  }
  const latest = getLatestResponse(state);
  if (latest && state.postCompactTokens === null)
    return { tokens: latest.contextTokens, source: 'usage' };
  return { tokens: 0, source: 'none' };
}

function hitContextLimitSinceCompaction(state: SessionState): boolean {
  if (state.lastPromptTooLongLine === null) return false;
  const lastCompaction = state.compactions[state.compactions.length - 1];
  return lastCompaction === undefined || state.lastPromptTooLongLine > lastCompaction.line;
}

export function assessSession(state: SessionState, options: AssessOptions): Assessment {
  const resolved = options.threshold;
  const threshold =
    options.fixedThreshold === undefined
      ? resolved
      : { ...resolved, compactThreshold: options.fixedThreshold, detail: 'fixed for evaluation' };
  const context = getContext(state);
  const contextLimitHit = hitContextLimitSinceCompaction(state);
  const forecast = withMinimumBasis(
    context.source === 'usage'
      ? forecastCompaction(
          getLiveResponses(state),
          threshold.compactThreshold,
          undefined,
          options.growthProfile,
        )
      : forecastCompaction([], threshold.compactThreshold),
    context.tokens >= threshold.compactThreshold,
  );
  const percent = toPercent(context.tokens, threshold.compactThreshold);
  const toolCallsSinceCheckpoint =
    options.toolCallsSinceCheckpoint ?? state.toolCalls - state.toolCallsAtCompaction;
  const sessionDurationMs = getSessionDuration(state, options.now);
  const risk = assessCrashRisk(
    {
      compactUsage: context.tokens / threshold.compactThreshold,
      // With auto-compaction off the forecast runs to the window's hard limit: still a crash.
      turnsToCompact: forecast.turnsToCompact,
      compactSoonProbability: forecast.compactSoonProbability,
      messageCount: state.promptCount + state.turns,
      sessionDurationMs,
      toolCallCount: state.toolCalls,
      toolCallsSinceCheckpoint,
      toolFailureRate: state.toolCalls > 0 ? state.toolFailures / state.toolCalls : 0,
      consecutiveToolFailures: state.consecutiveToolFailures,
      contextLimitHit,
    },
    options.risk ?? DEFAULT_RISK_THRESHOLDS,
  );
  const signals = computeSignals({
    state,
    contextTokens: context.tokens,
    windowTokens: threshold.windowTokens,
    compactThreshold: threshold.compactThreshold,
    growthPerTurn: forecast.growthPerTurn,
    toolCallsSinceCheckpoint,
    now: options.now,
    risk,
  });
  return {
    contextTokens: context.tokens,
    contextSource: context.source,
    estimatedContextTokens: signals.estimatedTotalTokens,
    windowTokens: threshold.windowTokens,
    compactThreshold: threshold.compactThreshold,
    thresholdSource: threshold.source,
    thresholdDetail: threshold.detail,
    era: threshold.era,
    blockingLimit: threshold.blockingLimit,
    nativeWarningAt: threshold.nativeWarningAt,
    autoCompact: threshold.autoCompact,
    percent,
    windowPercent: toPercent(context.tokens, threshold.windowTokens),
    level: getLevel(percent, options.levels ?? DEFAULT_LEVEL_THRESHOLDS),
    forecast,
    risk: risk.risk,
    riskFactors: risk.riskFactors,
    signals,
    contextLimitHit,
  };
}
