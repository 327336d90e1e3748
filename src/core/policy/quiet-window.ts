/**
 * The quiet window: after a full look, how long the PostToolUse hook may skip the next ones
 * because none of its decisions can change. A full look folds the transcript, redacts what it
 * keeps and runs the forecast (~15 ms of a fresh process); inside the window a call only checks
 * the newest response's usage against a token bound (docs/hot-path.md).
 *
 * The window holds while the context stays below `tokensBelow`, for `callsLeft` more tool calls
 * and until `until`; the hook leaves it for any call that may be a milestone (a command, a task
 * change), a failed tool call, a compaction or a context-limit error, so inside it tool calls
 * only succeed (the failure rate can only fall). It is granted only at level L0 and
 * only when the crash risk comes out the same at both ends of everything the window allows
 * (messages, time, tool calls, failures, usage up to the bound): so no level, alert or
 * checkpoint decision can differ from what a full look would decide. Pure.
 * @module
 */
import type { Assessment } from '../context/assess.ts';
import type { CheckpointPolicy } from './checkpoint-policy.ts';
import type { LevelThresholds } from '../context/level.ts';
import {
  assessCrashRisk,
  DEFAULT_RISK_THRESHOLDS,
  type CrashRisk,
  type RiskInput,
  type RiskThresholds,
} from '../context/risk.ts';

/** What the statusline shows besides the context itself, as the full look found it. */
export type QuietView = {
  /** The context at the full look (the statusline's figure when no newer one is known). */
  contextTokens: number;
  compactThreshold: number;
  windowTokens: number;
  risk: CrashRisk;
  turnsToCompact: number | null;
  turnsToCompactLow: number | null;
  turnsToCompactHigh: number | null;
  autoCompact: boolean;
  /** The agent refused a turn as over its window since the last compaction. */
  contextLimitHit?: boolean;
};

export type QuietWindow = {
  view: QuietView;
  /** Transcript bytes folded at the full look: a quiet call reads only what came after. */
  offset: number;
  /** The context (tokens) the window holds below. */
  tokensBelow: number;
  /**
   * Tool calls after the full look the window covers (the one that reaches the checkpoint
   * interval is not), counted from the transcript's tail: a quiet call writes nothing.
   */
  callsLeft: number;
  /** Epoch ms the window ends. */
  until: number;
};

/** At most this long, however far the next checkpoint is. */
export const MAX_QUIET_MS = 10 * 60 * 1000;
/** Messages (responses and prompts) one tool call may bring, generously. */
const MESSAGES_PER_CALL = 5;

export type QuietRequest = {
  assessment: Assessment;
  /** The hook memory as saved after this look's decision. */
  memory: {
    lastCheckpointAt: number | null;
    toolCallsAtCheckpoint: number;
    timing?: { unsaved: boolean } | null;
  };
  /** Tool calls counted at this look (this call included). */
  toolCalls: number;
  offset: number;
  now: number;
  policy: CheckpointPolicy;
  levels: LevelThresholds;
  risk?: RiskThresholds;
};

/** The crash-risk input the assessment was made from (the context-limit flag is not kept). */
function riskInputOf(a: Assessment): RiskInput {
  return {
    compactUsage: a.compactThreshold > 0 ? a.contextTokens / a.compactThreshold : 1,
    turnsToCompact: a.forecast.turnsToCompact,
    compactSoonProbability: a.forecast.compactSoonProbability,
    messageCount: a.signals.messageCount,
    sessionDurationMs: a.signals.sessionDuration,
    toolCallCount: a.signals.toolCallCount,
    toolCallsSinceCheckpoint: a.signals.toolCallsSinceCheckpoint,
    toolFailureRate: a.signals.toolFailureRate,
    consecutiveToolFailures: a.signals.consecutiveToolFailures,
    contextLimitHit: false,
  };
}

export function getQuietWindow(request: QuietRequest): QuietWindow | null {
  const { assessment: a, memory, now, policy } = request;
  const risk = request.risk ?? DEFAULT_RISK_THRESHOLDS;
  if (a.level !== 'L0' || memory.lastCheckpointAt === null || a.compactThreshold <= 0) return null;
  // Below every usage at which a level starts or the forecast starts to count for the risk.
  const usage = Math.min(
    request.levels.L1 / 100,
    ...[risk.warning, risk.danger].flatMap((z) => [
      z.compactUsage,
      z.forecastMinUsage,
      z.soonMinUsage,
    ]),
  );
  const tokensBelow = Math.floor(a.compactThreshold * usage);
  if (a.contextTokens >= tokensBelow) return null;
  // Under "changes" with no file changed since the last checkpoint no count checkpoint can fall
  // due until one does (a file-writing tool ends the window): counted from this look, as many
  // calls as by count, however long ago the last checkpoint was.
  // The time checkpoint waits for a file change too.
  const nothingToSave = policy.timing === 'changes' && memory.timing?.unsaved === false;
  const callsLeft = nothingToSave
    ? (policy.unchangedInterval ?? policy.toolCallInterval) - 1
    : policy.toolCallInterval - 1 - (request.toolCalls - memory.toolCallsAtCheckpoint);
  const until = nothingToSave
    ? now + MAX_QUIET_MS
    : Math.min(now + MAX_QUIET_MS, memory.lastCheckpointAt + policy.timeIntervalMs);
  if (callsLeft < 1 || until <= now) return null;

  const input = riskInputOf(a);
  const same = (probe: RiskInput) => assessCrashRisk(probe, risk).risk === a.risk;
  // The risk only grows with each of its inputs (and with fewer turns to compaction), so it is
  // the same everywhere in the window when it is at the window's lowest and highest corner. The
  // input must also give the assessment's own answer (a context-limit error it does not carry
  // would not).
  const failures = input.toolFailureRate * input.toolCallCount;
  const lowest: RiskInput = {
    ...input,
    compactUsage: 0,
    turnsToCompact: null,
    compactSoonProbability: null,
    toolFailureRate: failures / (input.toolCallCount + callsLeft),
    consecutiveToolFailures: 0,
  };
  const highest: RiskInput = {
    ...input,
    compactUsage: (tokensBelow - 1) / a.compactThreshold,
    turnsToCompact: 0,
    compactSoonProbability: 1,
    messageCount: input.messageCount + callsLeft * MESSAGES_PER_CALL,
    sessionDurationMs: input.sessionDurationMs + (until - now),
    toolCallCount: input.toolCallCount + callsLeft,
    toolCallsSinceCheckpoint: input.toolCallsSinceCheckpoint + callsLeft,
  };
  const probes = [input, lowest, highest];
  if (!probes.every(same)) return null;
  return { view: viewOf(a), offset: request.offset, tokensBelow, callsLeft, until };
}

/** What the statusline shows of an assessment besides its context (`contextTokens` to use). */
export function viewOf(a: Assessment, contextTokens = a.contextTokens): QuietView {
  return {
    contextTokens,
    compactThreshold: a.compactThreshold,
    windowTokens: a.windowTokens,
    risk: a.risk,
    turnsToCompact: a.forecast.turnsToCompact,
    turnsToCompactLow: a.forecast.turnsToCompactLow,
    turnsToCompactHigh: a.forecast.turnsToCompactHigh,
    autoCompact: a.autoCompact,
    ...(a.contextLimitHit ? { contextLimitHit: true } : {}),
  };
}

/**
 * The forecast `responses` later: each response the model makes is one fewer to the compaction
 * (the full look's growth model is kept until the next full look).
 */
export function forecastAfter(view: QuietView, responses: number): QuietView {
  const less = (turns: number | null) => (turns === null ? null : Math.max(1, turns - responses));
  return {
    ...view,
    turnsToCompact: less(view.turnsToCompact),
    turnsToCompactLow: less(view.turnsToCompactLow),
    turnsToCompactHigh: less(view.turnsToCompactHigh),
  };
}
