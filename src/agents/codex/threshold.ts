/**
 * Where Codex CLI auto-compacts (docs/agents.md, "Codex CLI", verified with 0.169.0): at
 * `model_auto_compact_token_limit` when config.toml sets it (only downwards of the default),
 * else at 90% of the model's raw context window. The rollout reports the effective window
 * (`model_context_window`, 95% of the raw one), so the raw one is that ÷ 0.95. Codex compares
 * the context of the newest response (`last_token_usage.total_tokens`) with it.
 * @module
 */
import { thresholdFromRule, type ThresholdRule } from '../../core/context/threshold.ts';
import type { ThresholdRules } from '../agent.ts';
import { readCompactLimit } from './config.ts';

/** Codex's `effective_context_window_percent` default. */
export const EFFECTIVE_WINDOW_SHARE = 0.95;
/** Without a catalog or config limit, Codex compacts at this share of the raw window. */
export const DEFAULT_COMPACT_SHARE = 0.9;
/** The raw window Codex assumes for a model it does not know. */
export const UNKNOWN_MODEL_WINDOW = 272_000;

export function codexRule(input: {
  /** `model_context_window` from the rollout (effective), if it said. */
  windowTokens: number | null;
  /** `model_auto_compact_token_limit` from config.toml, if set. */
  configuredLimit: number | null;
}): ThresholdRule {
  const effective = input.windowTokens ?? Math.round(UNKNOWN_MODEL_WINDOW * EFFECTIVE_WINDOW_SHARE);
  const raw = Math.round(effective / EFFECTIVE_WINDOW_SHARE);
  const rule = Math.round(raw * DEFAULT_COMPACT_SHARE);
  if (input.configuredLimit !== null && input.configuredLimit > 0 && input.configuredLimit < rule) {
    return {
      windowTokens: effective,
      compactThreshold: input.configuredLimit,
      source: 'settings',
      detail: `Codex CLI: model_auto_compact_token_limit ${input.configuredLimit} in config.toml`,
    };
  }
  return {
    windowTokens: effective,
    compactThreshold: rule,
    source: 'default',
    detail: `Codex CLI rule: 90% of the ${raw} window (the log reports ${effective}, 95% of it)`,
  };
}

/** The adapter's rule: config.toml read once per session, the rollout's window per response. */
export const codexThreshold: ThresholdRules = {
  prepare: (_session, request) => {
    const configuredLimit = readCompactLimit(request.env);
    return {
      inputs: { source: 'shell', recordedAt: null, detail: null },
      threshold: (state) =>
        thresholdFromRule(
          codexRule({ windowTokens: state.logWindowTokens ?? null, configuredLimit }),
        ),
    };
  },
};
