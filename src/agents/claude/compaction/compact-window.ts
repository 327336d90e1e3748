/**
 * The window Claude Code compacts against: the model's real window, and the compaction window
 * a user can set below it (env, then settings files by precedence, then the model's default).
 * Facts: docs/claude-code.md, "Context window and the auto-compact threshold".
 * @module
 */
import { formatTokens } from '../../../core/format-tokens.ts';
import { MAX_OUTPUT_RESERVE, type CompactionEra } from './compaction-era.ts';

export const DEFAULT_WINDOW = 200_000;
export const EXTENDED_WINDOW = 1_000_000;
/** Claude Code refuses a compaction window below this. */
export const MIN_COMPACT_WINDOW = 100_000;

export type Env = Readonly<Record<string, string | undefined>>;

/** The variables that move the window or the threshold: what hooks record per session. */
export const THRESHOLD_ENV_KEYS = [
  'CLAUDE_CODE_AUTO_COMPACT_WINDOW',
  'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE',
  'CLAUDE_CODE_DISABLE_1M_CONTEXT',
  'CLAUDE_CODE_MAX_CONTEXT_TOKENS',
  'CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE',
  'DISABLE_AUTO_COMPACT',
  'DISABLE_COMPACT',
] as const;

/** The threshold variables set in `env`, and only those. */
export function pickThresholdEnv(env: Env): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const key of THRESHOLD_ENV_KEYS) {
    const value = env[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}

/** Where a settings value came from, highest precedence first: managed, local, project, user. */
export type SettingsScope = 'managed' | 'local' | 'project' | 'user';

/** The compaction-window keys of one Claude Code settings file. */
export type SettingsWindows = {
  scope: SettingsScope;
  /** Where the file is, for messages. */
  path: string;
  /** Top-level `autoCompactWindow`. */
  autoCompactWindow: number | null;
  /** `modelSettings[<model>].autoCompactWindow`, keyed by the model name as written. */
  modelWindows: Readonly<Record<string, number>>;
  /** `autoCompactEnabled` when the file sets it (false: `/config` turned auto-compact off). */
  autoCompactEnabled?: boolean | null;
};

/** The file whose `autoCompactEnabled` is false and decides (the first file that sets it). */
export function findAutoCompactOff(
  settings: readonly SettingsWindows[] | undefined,
): SettingsWindows | null {
  const deciding = (settings ?? []).find((file) => typeof file.autoCompactEnabled === 'boolean');
  return deciding && deciding.autoCompactEnabled === false ? deciding : null;
}

export type WindowInput = {
  model: string | null;
  env: Env;
  /** The settings files Claude Code reads for this session, highest precedence first. */
  settings?: readonly SettingsWindows[];
  /** The largest context seen in the session: above 200k the window must be extended. */
  observedMaxContext?: number;
  /** A window size Claude Code reported itself (statusline context_window_size). */
  reportedWindow?: number | null;
};

export type WindowSource = 'env' | 'settings' | 'model';

export type CompactWindow = {
  /** The model's real window (what the statusline reports). */
  modelWindow: number;
  /** The window compaction is computed from: at most the model's. */
  compactWindow: number;
  source: WindowSource;
  /** e.g. "autoCompactWindow 400,000 in project settings (/p/.claude/settings.json)". */
  detail: string | null;
};

/** "claude-opus-4-5-20251101" → "claude-opus-4-5"; "opus[1m]" → "opus". */
export function normalizeModel(model: string | null | undefined): string | null {
  if (!model) return null;
  return model
    .toLowerCase()
    .replace(/\[1m\]$/, '')
    .replace(/-\d{8}$/, '');
}

export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

export function readNumber(value: string | undefined, min: number, max: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  if (!Number.isFinite(n)) return null;
  return Math.min(max, Math.max(min, n));
}

/** Models that always run with the 1M window. */
function isNativeExtendedModel(model: string): boolean {
  return /(sonnet-5|fable-5|mythos-5|opus-5|opus-4-([7-9]|\d\d)(?!\d))/.test(model);
}

/** The model's context window in tokens, as Claude Code sizes it. */
export function getModelWindow(input: WindowInput): number {
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

/** Max output tokens of the models whose limit is below the 20k reserve ceiling. */
const SMALL_OUTPUT_MODELS: ReadonlyArray<[RegExp, number]> = [
  [/claude-3-5-(haiku|sonnet)/, 8_192],
  [/claude-3-(haiku|sonnet|opus)/, 4_096],
];

/** min(model max output, 20k): what Claude Code keeps free for the response. */
export function getOutputReserve(model: string | null): number {
  const name = normalizeModel(model) ?? '';
  for (const [pattern, maxOutput] of SMALL_OUTPUT_MODELS)
    if (pattern.test(name)) return Math.min(maxOutput, MAX_OUTPUT_RESERVE);
  return MAX_OUTPUT_RESERVE;
}

/** The `autoCompactWindow` that applies to `model`: the first settings file that sets one. */
export function findSettingsWindow(
  settings: readonly SettingsWindows[],
  model: string | null,
): { tokens: number; detail: string } | null {
  const wanted = normalizeModel(model);
  for (const file of settings) {
    const forModel = Object.entries(file.modelWindows).find(
      ([name]) => wanted !== null && normalizeModel(name) === wanted,
    );
    if (forModel) {
      return {
        tokens: forModel[1],
        detail: `modelSettings["${forModel[0]}"].autoCompactWindow in ${file.scope} settings (${file.path})`,
      };
    }
    if (file.autoCompactWindow !== null) {
      return {
        tokens: file.autoCompactWindow,
        detail: `autoCompactWindow in ${file.scope} settings (${file.path})`,
      };
    }
  }
  return null;
}

/** Resolves the compaction window: env, then (in eras that read it) settings, then the model. */
export function resolveCompactWindow(input: WindowInput, era: CompactionEra): CompactWindow {
  const modelWindow = getModelWindow(input);
  const fromEnv = readNumber(
    input.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW,
    MIN_COMPACT_WINDOW,
    EXTENDED_WINDOW,
  );
  if (fromEnv !== null) {
    const compactWindow = Math.min(modelWindow, fromEnv);
    return {
      modelWindow,
      compactWindow,
      source: compactWindow === modelWindow ? 'model' : 'env',
      detail: `CLAUDE_CODE_AUTO_COMPACT_WINDOW=${formatTokens(fromEnv)}`,
    };
  }
  const fromSettings =
    era.rule === 'reserve' ? findSettingsWindow(input.settings ?? [], input.model) : null;
  if (fromSettings !== null) {
    const compactWindow = Math.min(modelWindow, Math.max(MIN_COMPACT_WINDOW, fromSettings.tokens));
    return {
      modelWindow,
      compactWindow,
      source: compactWindow === modelWindow ? 'model' : 'settings',
      detail: `${formatTokens(fromSettings.tokens)} from ${fromSettings.detail}`,
    };
  }
  return { modelWindow, compactWindow: modelWindow, source: 'model', detail: null };
}
