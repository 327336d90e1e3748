/**
 * Where a session compacts, as the assessment takes it: figures and why, whichever agent's rule
 * produced them (each agent's rule is its adapter's `threshold`, src/agents/<agent>/threshold.ts).
 * The compactions a session shows are evidence any rule may learn from.
 * @module
 */
import { classifyCompaction, type CompactionKind } from './compaction-kind.ts';
import { getLiveResponses, type SessionState } from '../session.ts';

export type ThresholdSource = 'learned' | 'default' | 'settings' | 'env' | 'disabled';

export type CompactThreshold = {
  /** The model's real window. */
  windowTokens: number;
  compactThreshold: number;
  autoCompact: boolean;
  source: ThresholdSource;
  /** Human-readable reason, e.g. "Claude Code 2.1.330 rule: 200,000 − 20,000 reserve − 13,000". */
  detail: string;
  sampleCount: number;
  /** The rule set that applied: a Claude Code era ("2.1.43+"), or "agent" for a fixed rule. */
  era: string;
  /** The window compaction is computed from, and where it came from. */
  compactWindow: number;
  windowSource: 'env' | 'settings' | 'model';
  /** The agent's own "context low" warning point; null where it is not known. */
  nativeWarningAt: number | null;
  /** Where the agent refuses to send ("prompt too long" guard); null where not known. */
  blockingLimit: number | null;
  /** From here a summary is prepared in the background; null where not known. */
  backgroundSummaryAt: number | null;
};

/** An agent's rule as plain figures: where it compacts, in which window, and why. */
export type ThresholdRule = {
  windowTokens: number;
  compactThreshold: number;
  source: 'default' | 'settings';
  detail: string;
};

/** A rule with nothing learned and no warning points: what a fixed rule says. */
export function thresholdFromRule(rule: ThresholdRule): CompactThreshold {
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

/** One observed auto compaction: the user's own evidence of where the agent compacts. */
export type CompactSample = {
  cliVersion: string | null;
  model: string | null;
  preTokens: number;
  /** Context of the last main-chain response before it; null when not known (older caches). */
  lastContextTokens?: number | null;
  /** Set when the sample is known not to be a threshold compaction. */
  kind?: CompactionKind;
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

/** The largest context the session has shown: a window is at least this big. */
export function getObservedMax(state: SessionState): number {
  let max = 0;
  for (const r of getLiveResponses(state)) max = Math.max(max, r.contextTokens);
  for (const c of state.compactions) max = Math.max(max, c.preTokens ?? 0);
  return Math.max(max, state.lastResponse?.contextTokens ?? 0);
}
