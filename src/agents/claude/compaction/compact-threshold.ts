/**
 * Where a session's context window ends and where Claude Code will auto-compact it.
 *
 * The threshold is what users need ("how long until compaction?") and Claude Code does not
 * expose it. It is computed by the rules of the session's CLI era (compaction-era.ts) from the
 * window the user chose (compact-window.ts); the user's own compactions confirm it or, where
 * they contradict it (a server-side value, an unknown model), replace it (threshold-learning.ts).
 * Overrides that can only lower it come last.
 * @module
 */
import { formatTokens } from '../../../core/format-tokens.ts';
import {
  BACKGROUND_SUMMARY_SHARE,
  BLOCKING_MARGIN,
  getCompactionEra,
  NATIVE_WARNING_MARGIN,
  RESERVE_ERA_BUFFER,
  type CompactionEra,
} from './compaction-era.ts';
import {
  DEFAULT_WINDOW,
  EXTENDED_WINDOW,
  findAutoCompactOff,
  getModelWindow,
  getOutputReserve,
  isTruthy,
  normalizeModel,
  readNumber,
  resolveCompactWindow,
  type WindowInput,
} from './compact-window.ts';
import { compareVersions } from '../../../core/version.ts';
import { learnThreshold } from './threshold-learning.ts';
import type {
  CompactSample,
  CompactThreshold,
  ThresholdSource,
} from '../../../core/context/threshold.ts';

export { DEFAULT_WINDOW, EXTENDED_WINDOW, normalizeModel } from './compact-window.ts';
export type { SettingsWindows } from './compact-window.ts';

export type ThresholdInput = WindowInput & {
  cliVersion: string | null;
  samples: readonly CompactSample[];
};

/** The model's context window in tokens, as Claude Code would size it. */
export const getWindowTokens = getModelWindow;

/** Evidence within this share below the interval still confirms a computed threshold. */
const CONFIRM_SLACK = 0.03;
const MAX_SAMPLES = 20;

/**
 * The samples that speak for this session: same era and window size, the same model when
 * there are any, the nearest versions first.
 */
function selectSamples(
  input: ThresholdInput,
  era: CompactionEra,
  modelWindow: number,
): CompactSample[] {
  const model = normalizeModel(input.model);
  const fits = input.samples.filter((s) => {
    if (getCompactionEra(s.cliVersion).name !== era.name) return false;
    const sampleWindow = s.preTokens > DEFAULT_WINDOW ? EXTENDED_WINDOW : DEFAULT_WINDOW;
    return modelWindow > DEFAULT_WINDOW
      ? sampleWindow === EXTENDED_WINDOW
      : s.preTokens <= modelWindow;
  });
  const sameModel = fits.filter((s) => normalizeModel(s.model) === model);
  const pool = sameModel.length > 0 ? sameModel : fits;
  const current = input.cliVersion;
  return [...pool]
    .sort((a, b) => {
      const aAfter = current !== null && compareVersions(a.cliVersion, current) > 0 ? 1 : 0;
      const bAfter = current !== null && compareVersions(b.cliVersion, current) > 0 ? 1 : 0;
      if (aAfter !== bAfter) return aAfter - bAfter;
      return aAfter
        ? compareVersions(a.cliVersion, b.cliVersion)
        : compareVersions(b.cliVersion, a.cliVersion);
    })
    .slice(0, MAX_SAMPLES);
}

type Rule = { threshold: number; effectiveWindow: number; detail: string };

/** The era's own formula for this window. */
function computeByRule(
  era: CompactionEra,
  compactWindow: number,
  model: string | null,
  cliVersion: string | null,
): Rule {
  const version = cliVersion ?? '(unknown version)';
  if (era.rule === 'buffer') {
    return {
      threshold: compactWindow - era.buffer,
      effectiveWindow: compactWindow,
      detail: `Claude Code ${version} rule: window ${formatTokens(compactWindow)} − ${era.buffer / 1000}k buffer`,
    };
  }
  const reserve = getOutputReserve(model);
  const effectiveWindow = compactWindow - reserve;
  return {
    threshold: effectiveWindow - RESERVE_ERA_BUFFER,
    effectiveWindow,
    detail: `Claude Code ${version} rule: window ${formatTokens(compactWindow)} − ${formatTokens(reserve)} output reserve − ${RESERVE_ERA_BUFFER / 1000}k`,
  };
}

/** Resolves the window and auto-compact threshold for a session. */
export function resolveCompactThreshold(input: ThresholdInput): CompactThreshold {
  const era = getCompactionEra(input.cliVersion);
  const window = resolveCompactWindow(input, era);
  const { env } = input;
  const reserve = getOutputReserve(input.model);
  const known = era.rule === 'reserve';
  const blockOverride = readNumber(env.CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE, 1_000, 10_000_000);
  const blockingLimit = known
    ? (blockOverride ?? window.modelWindow - reserve - BLOCKING_MARGIN)
    : null;
  const base = {
    windowTokens: window.modelWindow,
    era: era.name,
    compactWindow: window.compactWindow,
    windowSource: window.source,
    blockingLimit,
  };
  const offInSettings = findAutoCompactOff(input.settings);
  if (isTruthy(env.DISABLE_AUTO_COMPACT) || isTruthy(env.DISABLE_COMPACT) || offInSettings) {
    return {
      ...base,
      compactThreshold: window.modelWindow,
      autoCompact: false,
      source: 'disabled',
      detail: `auto-compaction is disabled${offInSettings ? ` (autoCompactEnabled false in ${offInSettings.path})` : ''}; measuring against the full window`,
      sampleCount: 0,
      nativeWarningAt: null,
      backgroundSummaryAt: null,
    };
  }

  const rule = computeByRule(era, window.compactWindow, input.model, input.cliVersion);
  let threshold = rule.threshold;
  let source: ThresholdSource =
    window.source === 'env' ? 'env' : window.source === 'settings' ? 'settings' : 'default';
  let detail = window.detail ? `${rule.detail} (${window.detail})` : rule.detail;
  let sampleCount = 0;

  // A window the user set is not what their past compactions ran under.
  const learned =
    window.source === 'model'
      ? learnThreshold(selectSamples(input, era, window.modelWindow))
      : null;
  if (learned) {
    sampleCount = learned.count;
    const plural = learned.count === 1 ? '' : 's';
    const confirmed =
      threshold >= learned.lower * (1 - CONFIRM_SLACK) && threshold <= learned.upper;
    if (confirmed) {
      detail = `${detail}; consistent with ${learned.count} auto compaction${plural} seen`;
    } else {
      threshold = learned.value;
      source = 'learned';
      const range =
        learned.lower === learned.upper
          ? `at ${formatTokens(learned.upper)}`
          : `between ${formatTokens(learned.lower)} and ${formatTokens(learned.upper)}`;
      detail = `learned from ${learned.count} auto compaction${plural} (${range}); the ${era.name} rule says ${formatTokens(rule.threshold)}`;
    }
  }

  const rawPct = readNumber(env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, 0, 100);
  // 0 is not a valid percentage (Claude Code takes 1–100): ignore it rather than compact at once.
  const pct = rawPct !== null && rawPct >= 1 ? rawPct : null;
  if (pct !== null) {
    const cap = Math.floor((rule.effectiveWindow * pct) / 100);
    if (cap < threshold) {
      threshold = cap;
      source = 'env';
      detail = `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${pct}% of ${formatTokens(rule.effectiveWindow)}`;
    }
  }
  const compactThreshold = Math.max(1, Math.min(threshold, window.modelWindow));
  return {
    ...base,
    compactThreshold,
    autoCompact: true,
    source,
    detail,
    sampleCount,
    nativeWarningAt: known ? Math.max(0, compactThreshold - NATIVE_WARNING_MARGIN) : null,
    backgroundSummaryAt: known ? Math.floor(rule.effectiveWindow * BACKGROUND_SUMMARY_SHARE) : null,
  };
}
