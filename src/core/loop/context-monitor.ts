/**
 * Context monitor for `shim loop` (docs/specification.md, "The loop"): how full the running session's context is,
 * measured against the auto-compact threshold, and whether the loop should restart it with a
 * fresh session before Claude Code compacts.
 *
 * Fail-safe: any broken number reads as "safe" (0%, not exhausted). A missed restart costs a
 * compaction; a false one costs a restart, and restarts are capped by the loop.
 * @module
 */

/** Restart once the context reaches this percent of the auto-compact threshold. */
export const DEFAULT_THRESHOLD_PERCENT = 70;
/** Warn this many percentage points before the restart threshold. */
export const DEFAULT_WARNING_MARGIN = 10;

export type ContextCheck = { percent: number; exhausted: boolean; warning: boolean };

const SAFE: ContextCheck = { percent: 0, exhausted: false, warning: false };

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * The seed's own loop settings (CONTEXT_WINDOW_TOKENS, CONTEXT_EXHAUSTION_THRESHOLD,
 * docs/specification.md "The loop"): restart at `percent` of a context window of `windowTokens`
 * (null: the window shim resolves for the model), not at a percent of the auto-compact threshold.
 */
export type WindowRestart = { percent: number; windowTokens: number | null };

/** When the loop restarts a session: shim's percent of the threshold, or the seed's window rule. */
export type RestartRule = { thresholdPercent: number; window: WindowRestart | null };

/**
 * The restart point as a percent of the auto-compact threshold (what checkContextUsage takes):
 * shim's own percent, or the seed's `percent` of the window turned into tokens and measured
 * against the threshold. Clamped to (0, 200]; a broken threshold keeps shim's percent.
 */
export function restartPercent(
  rule: RestartRule,
  threshold: { compactThreshold: number; windowTokens: number },
): number {
  if (!rule.window) return rule.thresholdPercent;
  const window = rule.window.windowTokens ?? threshold.windowTokens;
  if (!isFiniteNumber(window) || window <= 0) return rule.thresholdPercent;
  if (!isFiniteNumber(threshold.compactThreshold) || threshold.compactThreshold <= 0)
    return rule.thresholdPercent;
  const tokens = (rule.window.percent / 100) * window;
  const percent = Math.round((tokens / threshold.compactThreshold) * 1000) / 10;
  return Math.min(200, Math.max(0.1, percent));
}

/**
 * `percent` is `contextTokens / compactThreshold × 100` rounded to one decimal, and the flags
 * are decided on that rounded value so that what is shown and what is done agree. `exhausted`
 * at or past `thresholdPercent`, `warning` from `thresholdPercent − warningMargin` on.
 *
 * Safe result (`0%`, no flags) for non-numbers, non-finite or negative token counts, a zero or
 * negative threshold, and a threshold percent outside (0, 200]. A broken `warningMargin` falls
 * back to the default.
 */
export function checkContextUsage(
  contextTokens: unknown,
  compactThreshold: unknown,
  thresholdPercent: unknown,
  warningMargin: number = DEFAULT_WARNING_MARGIN,
): ContextCheck {
  if (!isFiniteNumber(contextTokens) || contextTokens < 0) return { ...SAFE };
  if (!isFiniteNumber(compactThreshold) || compactThreshold <= 0) return { ...SAFE };
  if (!isFiniteNumber(thresholdPercent) || thresholdPercent <= 0 || thresholdPercent > 200) {
    return { ...SAFE };
  }
  const raw = (contextTokens / compactThreshold) * 100;
  const percent = Math.round(raw * 10) / 10;
  if (!Number.isFinite(percent)) return { ...SAFE };
  const margin =
    isFiniteNumber(warningMargin) && warningMargin >= 0 ? warningMargin : DEFAULT_WARNING_MARGIN;
  return {
    percent,
    exhausted: percent >= thresholdPercent,
    warning: percent >= thresholdPercent - margin,
  };
}

/**
 * A text gauge such as `▓▓▓▓▓▓░░░░░░░░░░░░░░ 31%`. The bar is clamped to 0–100% (full only at
 * 100%); the label shows the rounded percent, past 100 too. A broken percent reads as 0; a
 * broken width as 20, and widths are capped at 200 cells (0 prints the label alone).
 */
export function renderContextBar(percent: number, width = 20): string {
  const value = isFiniteNumber(percent) && percent > 0 ? percent : 0;
  const cells = isFiniteNumber(width) && width >= 0 ? Math.min(200, Math.floor(width)) : 20;
  const filled = Math.floor((Math.min(100, value) / 100) * cells);
  const label = `${Math.round(value)}%`;
  if (cells === 0) return label;
  return `${'▓'.repeat(filled)}${'░'.repeat(cells - filled)} ${label}`;
}
