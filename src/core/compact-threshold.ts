/**
 * Where a session's context window ends and where Claude Code will auto-compact it.
 *
 * The threshold is what users need ("how long until compaction?") and Claude Code does not
 * expose it. Order of trust: what this user's own transcripts showed (compact_boundary
 * preTokens), then the documented and measured defaults per CLI version, then environment
 * overrides that can only lower it.
 * @module
 */
import { compareVersions, parseVersion } from './version.ts';

export const DEFAULT_WINDOW = 200_000;
export const EXTENDED_WINDOW = 1_000_000;

/**
 * Auto-compact buffers measured on real transcripts (docs/claude-code.md, "Context window and the auto-compact threshold"):
 * up to v2.1.20 compaction fired at window - 45k, from v2.1.21 at window - 33k.
 */
const BUFFER_ERAS: ReadonlyArray<{ from: string; buffer: number }> = [
  { from: '0.0.0', buffer: 45_000 },
  { from: '2.1.21', buffer: 33_000 },
];

/** One observed auto compaction: the user's own evidence of the threshold. */
export type CompactSample = {
  cliVersion: string | null;
  model: string | null;
  preTokens: number;
};

export type ThresholdInput = {
  model: string | null;
  cliVersion: string | null;
  env: Readonly<Record<string, string | undefined>>;
  samples: readonly CompactSample[];
  /** The largest context seen in the session: above 200k the window must be extended. */
  observedMaxContext?: number;
  /** A window size Claude Code reported itself (statusline context_window_size). */
  reportedWindow?: number | null;
};

export type ThresholdSource = 'learned' | 'default' | 'env' | 'disabled';

export type CompactThreshold = {
  windowTokens: number;
  compactThreshold: number;
  autoCompact: boolean;
  source: ThresholdSource;
  /** Human-readable reason, e.g. "learned from 4 auto compactions (claude-opus-4-6, 2.1.39)". */
  detail: string;
  sampleCount: number;
};

/** "claude-opus-4-5-20251101" → "claude-opus-4-5"; "opus[1m]" → "opus". */
export function normalizeModel(model: string | null | undefined): string | null {
  if (!model) return null;
  return model
    .toLowerCase()
    .replace(/\[1m\]$/, '')
    .replace(/-\d{8}$/, '');
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

function readNumber(value: string | undefined, min: number, max: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  if (!Number.isFinite(n)) return null;
  return Math.min(max, Math.max(min, n));
}

/** Models that always run with the 1M window (docs/claude-code.md, "Context window and the auto-compact threshold"). */
function isNativeExtendedModel(model: string): boolean {
  return /(sonnet-5|fable-5|mythos-5|opus-5|opus-4-([7-9]|\d\d)(?!\d))/.test(model);
}

/** The context window in tokens for a model, as Claude Code would size it. */
export function getWindowTokens(input: ThresholdInput): number {
  const maxOverride = readNumber(input.env.CLAUDE_CODE_MAX_CONTEXT_TOKENS, 1_000, 10_000_000);
  if (maxOverride !== null) return maxOverride;
  if (input.reportedWindow && input.reportedWindow > 0) return input.reportedWindow;
  const raw = (input.model ?? '').toLowerCase();
  const disable1m = isTruthy(input.env.CLAUDE_CODE_DISABLE_1M_CONTEXT);
  if (!disable1m && (/\[1m\]|-1m\b|1m context/.test(raw) || isNativeExtendedModel(raw))) {
    return EXTENDED_WINDOW;
  }
  if ((input.observedMaxContext ?? 0) > DEFAULT_WINDOW) return EXTENDED_WINDOW;
  return DEFAULT_WINDOW;
}

function getBuffer(cliVersion: string | null): number {
  let buffer = BUFFER_ERAS[BUFFER_ERAS.length - 1]!.buffer;
  if (!cliVersion) return buffer;
  for (const era of BUFFER_ERAS)
    if (compareVersions(cliVersion, era.from) >= 0) buffer = era.buffer;
  return buffer;
}

function getEraIndex(cliVersion: string | null): number {
  if (!parseVersion(cliVersion)) return BUFFER_ERAS.length - 1;
  let index = 0;
  BUFFER_ERAS.forEach((era, i) => {
    if (compareVersions(cliVersion, era.from) >= 0) index = i;
  });
  return index;
}

/**
 * Picks the samples that speak for this session: same buffer era and window, the same model
 * when there are any, the nearest versions first.
 */
function selectSamples(input: ThresholdInput, windowTokens: number): CompactSample[] {
  const era = getEraIndex(input.cliVersion);
  const model = normalizeModel(input.model);
  const fits = input.samples.filter((s) => {
    if (getEraIndex(s.cliVersion) !== era) return false;
    const sampleWindow = s.preTokens > DEFAULT_WINDOW ? EXTENDED_WINDOW : DEFAULT_WINDOW;
    return windowTokens > DEFAULT_WINDOW
      ? sampleWindow === EXTENDED_WINDOW
      : s.preTokens <= windowTokens;
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
    .slice(0, 10);
}

/**
 * preTokens overshoots the real threshold by whatever the last tool result added, so the
 * lower quartile (the minimum for few samples) is the honest estimate.
 */
function estimateFromSamples(samples: CompactSample[]): number {
  const sorted = samples.map((s) => s.preTokens).sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * 0.25)]!;
}

/** Resolves the window and auto-compact threshold for a session. */
export function resolveCompactThreshold(input: ThresholdInput): CompactThreshold {
  const windowTokens = getWindowTokens(input);
  const { env } = input;
  if (isTruthy(env.DISABLE_AUTO_COMPACT) || isTruthy(env.DISABLE_COMPACT)) {
    return {
      windowTokens,
      compactThreshold: windowTokens,
      autoCompact: false,
      source: 'disabled',
      detail: 'auto-compaction is disabled; measuring against the full window',
      sampleCount: 0,
    };
  }
  const autoCompactWindow = Math.min(
    windowTokens,
    readNumber(env.CLAUDE_CODE_AUTO_COMPACT_WINDOW, 100_000, 1_000_000) ?? windowTokens,
  );
  const rawPct = readNumber(env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, 0, 100);
  // 0 is not a valid percentage (Claude Code takes 1–100): ignore it rather than compact at once.
  const pct = rawPct !== null && rawPct >= 1 ? rawPct : null;
  const pctCap = pct === null ? Infinity : Math.floor((autoCompactWindow * pct) / 100);
  const windowOverridden = autoCompactWindow !== windowTokens;

  const samples = windowOverridden ? [] : selectSamples(input, windowTokens);
  let threshold: number;
  let source: ThresholdSource;
  let detail: string;
  if (samples.length > 0) {
    threshold = estimateFromSamples(samples);
    source = 'learned';
    const versions = [...new Set(samples.map((s) => s.cliVersion ?? '?'))].slice(0, 3).join(', ');
    detail = `learned from ${samples.length} auto compaction${samples.length === 1 ? '' : 's'} (${versions})`;
  } else {
    const buffer = getBuffer(input.cliVersion);
    threshold = autoCompactWindow - buffer;
    source = windowOverridden ? 'env' : 'default';
    detail = windowOverridden
      ? `CLAUDE_CODE_AUTO_COMPACT_WINDOW=${autoCompactWindow} minus the ${buffer / 1000}k buffer`
      : `documented default for Claude Code ${input.cliVersion ?? '(unknown version)'}: window minus ${buffer / 1000}k`;
  }
  if (pctCap < threshold) {
    threshold = pctCap;
    source = 'env';
    detail = `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${pct}% of ${autoCompactWindow}`;
  }
  return {
    windowTokens,
    compactThreshold: Math.max(1, Math.min(threshold, windowTokens)),
    autoCompact: true,
    source,
    detail,
    sampleCount: samples.length,
  };
}
