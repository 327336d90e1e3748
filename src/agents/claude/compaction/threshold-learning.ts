/**
 * Learning where Claude Code compacts from the user's own auto compactions.
 *
 * A compaction fires before a request once Claude Code's count passes the threshold; the count
 * it acted on is `preTokens`, which includes tool results added after the last response. So
 * each compaction bounds the threshold: above about the last response's context, at most
 * `preTokens`. The estimate is where those intervals meet, and never above a `preTokens` seen.
 * @module
 */
import type { CompactSample } from '../../../core/context/threshold.ts';

export type LearnedThreshold = {
  /** The estimate: the lowest threshold the evidence allows, at most any preTokens. */
  value: number;
  /** The interval the evidence leaves (lower ≤ upper). */
  lower: number;
  upper: number;
  /** Samples that spoke (outliers and non-threshold compactions left out). */
  count: number;
};

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A sample far from the others was taken under other settings (a lowered window, a put-off). */
const OUTLIER_SHARE = 0.05;

export function learnThreshold(samples: readonly CompactSample[]): LearnedThreshold | null {
  const bounds = samples
    .filter((s) => s.kind === undefined || s.kind === 'threshold')
    .filter((s) => s.preTokens > 0)
    .map((s) => ({
      lower: Math.min(s.lastContextTokens ?? s.preTokens, s.preTokens),
      upper: s.preTokens,
    }));
  if (bounds.length === 0) return null;
  const typicalLower = median(bounds.map((b) => b.lower));
  const typicalUpper = median(bounds.map((b) => b.upper));
  const kept = bounds.filter(
    (b) =>
      b.upper >= typicalLower * (1 - OUTLIER_SHARE) &&
      b.lower <= typicalUpper * (1 + OUTLIER_SHARE),
  );
  const used = kept.length > 0 ? kept : bounds;
  const maxLower = Math.max(...used.map((b) => b.lower));
  const minUpper = Math.min(...used.map((b) => b.upper));
  const value = Math.min(maxLower, minUpper);
  return { value, lower: value, upper: minUpper, count: used.length };
}
