/**
 * CrashSignals (docs/specification.md, "Signals and crash risk"), computed from the session model.
 * @module
 */
import type { CrashRisk } from './risk.ts';
import type { SessionState } from '../session.ts';

export type LatencyTrend = 'stable' | 'increasing' | 'decreasing';
export type ResponseLatencyTrend = 'normal' | 'degrading' | 'critical';

export type CrashSignals = {
  estimatedTotalTokens: number;
  tokensPerMessage: number;
  /** Fraction of the raw context window in use (0–1). */
  contextWindowUsage: number;
  contextWindowRemaining: number;
  messageCount: number;
  toolCallCount: number;
  toolCallsSinceCheckpoint: number;
  messagesPerMinute: number;
  sessionDuration: number;
  avgResponseLatency: number;
  timeSinceLastResponse: number;
  latencyTrend: LatencyTrend;
  toolFailureRate: number;
  consecutiveToolFailures: number;
  responseLatencyTrend: ResponseLatencyTrend;
  errorPatterns: string[];
  crashRisk: CrashRisk;
  riskFactors: string[];
  /** Beyond the specification: the fraction of the auto-compact threshold in use, and tokens left to it. */
  compactThresholdUsage: number;
  tokensUntilCompact: number;
};

/** Estimated tokens per character of appended transcript text (JSON-ish text runs denser). */
const TOKENS_PER_CHAR = 1 / 3.5;

/** Tokens added since the newest response: its own output plus what was appended after it. */
export function estimateAppendedTokens(state: SessionState): number {
  const latest = state.current ?? state.lastResponse;
  const output = latest && state.postCompactTokens === null ? latest.outputTokens : 0;
  return output + Math.round(state.appendedChars * TOKENS_PER_CHAR);
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

export function getLatencyTrends(latencies: readonly number[]): {
  latencyTrend: LatencyTrend;
  responseLatencyTrend: ResponseLatencyTrend;
} {
  if (latencies.length < 6) return { latencyTrend: 'stable', responseLatencyTrend: 'normal' };
  const half = Math.floor(latencies.length / 2);
  const before = mean(latencies.slice(0, half));
  const after = mean(latencies.slice(half));
  const ratio = before > 0 ? after / before : 1;
  const latencyTrend: LatencyTrend =
    ratio > 1.5 ? 'increasing' : ratio < 0.67 ? 'decreasing' : 'stable';
  const responseLatencyTrend: ResponseLatencyTrend =
    ratio > 4 || after > 300_000
      ? 'critical'
      : ratio > 2 || after > 120_000
        ? 'degrading'
        : 'normal';
  return { latencyTrend, responseLatencyTrend };
}

/** Active span of the session: first entry to the latest activity (not to "now": an old transcript is not a long session). */
export function getSessionDuration(state: SessionState, now: number): number {
  if (state.startedAt === null) return 0;
  const end = Math.min(now, state.lastActivityAt ?? now);
  return Math.max(0, end - state.startedAt);
}

export type SignalInput = {
  state: SessionState;
  contextTokens: number;
  windowTokens: number;
  compactThreshold: number;
  growthPerTurn: number | null;
  /** Tool calls since the last checkpoint; without a store, since the session began. */
  toolCallsSinceCheckpoint: number;
  now: number;
  risk: { risk: CrashRisk; riskFactors: string[] };
};

export function computeSignals(input: SignalInput): CrashSignals {
  const { state, contextTokens, windowTokens, compactThreshold, now } = input;
  const estimatedTotalTokens = contextTokens + estimateAppendedTokens(state);
  const messageCount = state.promptCount + state.turns;
  const sessionDuration = getSessionDuration(state, now);
  const minutes = sessionDuration / 60_000;
  const latest = state.current ?? state.lastResponse;
  const latencies = state.latencies;
  return {
    estimatedTotalTokens,
    tokensPerMessage: Math.max(
      0,
      Math.round(input.growthPerTurn ?? (state.turns > 0 ? contextTokens / state.turns : 0)),
    ),
    contextWindowUsage: windowTokens > 0 ? round3(contextTokens / windowTokens) : 0,
    contextWindowRemaining: Math.max(0, windowTokens - contextTokens),
    messageCount,
    toolCallCount: state.toolCalls,
    toolCallsSinceCheckpoint: input.toolCallsSinceCheckpoint,
    messagesPerMinute: minutes > 0 ? round3(messageCount / minutes) : 0,
    sessionDuration,
    avgResponseLatency: Math.round(mean(latencies)),
    timeSinceLastResponse: latest?.at != null ? Math.max(0, now - latest.at) : 0,
    ...getLatencyTrends(latencies),
    toolFailureRate: state.toolCalls > 0 ? round3(state.toolFailures / state.toolCalls) : 0,
    consecutiveToolFailures: state.consecutiveToolFailures,
    errorPatterns: [...state.errorPatterns],
    crashRisk: input.risk.risk,
    riskFactors: input.risk.riskFactors,
    compactThresholdUsage: compactThreshold > 0 ? round3(contextTokens / compactThreshold) : 0,
    tokensUntilCompact: Math.max(0, compactThreshold - contextTokens),
  };
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
