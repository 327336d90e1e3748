/**
 * The one pipeline every front door calls: session model → context size, threshold, level,
 * forecast, signals and risk.
 * @module
 */
import {
  resolveCompactThreshold,
  type CompactThreshold,
  type CompactSample,
  type SettingsWindows,
  type ThresholdSource,
} from '../compact-threshold.ts';
import { classifyCompaction } from './compaction-kind.ts';
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
  env: Readonly<Record<string, string | undefined>>;
  /** Auto compactions seen in the user's other transcripts. */
  history: readonly CompactSample[];
  /** Epoch ms "now": the wall clock live, the current line's timestamp in a replay. */
  now: number;
  levels?: LevelThresholds;
  risk?: RiskThresholds;
  /** Without a checkpoint store, the calls since the last compaction count. */
  toolCallsSinceCheckpoint?: number;
  reportedWindow?: number | null;
  /** Claude Code settings files that set a compaction window, highest precedence first. */
  settings?: readonly SettingsWindows[];
  /** Evaluation baselines only: this threshold instead of the resolved one. */
  fixedThreshold?: number;
  /**
   * Another agent's own rule (src/agents/<agent>/threshold.ts) instead of Claude Code's: its
   * window, threshold, and why.
   */
  agentThreshold?: {
    windowTokens: number;
    compactThreshold: number;
    source: 'default' | 'settings';
    detail: string;
  };
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
  /** The Claude Code era whose rules applied, e.g. "2.1.43+". */
  era: string;
  /** Where Claude Code refuses to send ("prompt too long" guard); null where not known. */
  blockingLimit: number | null;
  /** Claude Code's own "context low" warning point; null where not known. */
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
};

/** The session's own auto compactions are evidence of its threshold too. */
export function getSessionSamples(state: SessionState): CompactSample[] {
  return state.compactions
    .filter((c) => c.trigger === 'auto' && c.preTokens !== null && c.preTokens > 0)
    .map((c) => ({
      cliVersion: c.cliVersion,
      model: c.model,
      preTokens: c.preTokens!,
      lastContextTokens: c.lastContextTokens,
      kind: classifyCompaction(c),
    }));
}

function getContext(state: SessionState): { tokens: number; source: ContextSource } {
  if (state.postCompactTokens !== null && state.current === null) {
    return { tokens: state.postCompactTokens, source: 'post-compact' };
  }
  const latest = getLatestResponse(state);
  if (latest && state.postCompactTokens === null)
    return { tokens: latest.contextTokens, source: 'usage' };
  return { tokens: 0, source: 'none' };
}

function getObservedMax(state: SessionState): number {
  let max = 0;
  for (const r of getLiveResponses(state)) max = Math.max(max, r.contextTokens);
  for (const c of state.compactions) max = Math.max(max, c.preTokens ?? 0);
  return Math.max(max, state.lastResponse?.contextTokens ?? 0);
}

function hitContextLimitSinceCompaction(state: SessionState): boolean {
  if (state.lastPromptTooLongLine === null) return false;
  const lastCompaction = state.compactions[state.compactions.length - 1];
  return lastCompaction === undefined || state.lastPromptTooLongLine > lastCompaction.line;
}

function fromAgentRule(rule: NonNullable<AssessOptions['agentThreshold']>): CompactThreshold {
  return {
    ...rule,
    autoCompact: true,
    sampleCount: 0,
    era: 'agent',
    compactWindow: rule.windowTokens,
    windowSource: 'model',
    nativeWarningAt: null,
    blockingLimit: null,
    backgroundSummaryAt: null,
  };
}

export function assessSession(state: SessionState, options: AssessOptions): Assessment {
  const resolved = options.agentThreshold
    ? fromAgentRule(options.agentThreshold)
    : resolveCompactThreshold({
        model: state.model,
        cliVersion: state.cliVersion,
        env: options.env,
        samples: [...options.history, ...getSessionSamples(state)],
        observedMaxContext: getObservedMax(state),
        reportedWindow: options.reportedWindow ?? null,
        settings: options.settings ?? [],
      });
  const threshold =
    options.fixedThreshold === undefined
      ? resolved
      : { ...resolved, compactThreshold: options.fixedThreshold, detail: 'fixed for evaluation' };
  const context = getContext(state);
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
      contextLimitHit: hitContextLimitSinceCompaction(state),
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
  };
}
