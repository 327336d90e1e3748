/**
 * Where Gemini CLI compresses a chat (0.61.0, context/chatCompressionService.ts): before each
 * request, when the last prompt's token count reaches `model.compressionThreshold` (default 0.5)
 * × the model's token limit (core/tokenLimits.ts: 256,000 for Gemma 4, 1,048,576 for every other
 * model). It then summarises the older 70% into a `<state_snapshot>`. docs/agents.md, "Gemini CLI".
 * The fraction is read from the project's settings, else the user's (sessions.ts).
 * @module
 */
import { findProjectRoot } from '../../capture/project.ts';
import { thresholdFromRule, type ThresholdRule } from '../../core/context/threshold.ts';
import { formatThousands } from '../../core/format-tokens.ts';
import type { ThresholdRules } from '../agent.ts';
import { readConfiguredModel, readConfiguredThreshold } from './sessions.ts';

export const DEFAULT_COMPRESSION_THRESHOLD = 0.5;
export const DEFAULT_TOKEN_LIMIT = 1_048_576;
const GEMMA_4_TOKEN_LIMIT = 256_000;
const GEMMA_4_MODELS = new Set(['gemma-4-31b-it', 'gemma-4-26b-a4b-it']);

/** The token limit Gemini CLI assumes for `model`. */
export function geminiTokenLimit(model: string | null): number {
  return model !== null && GEMMA_4_MODELS.has(model) ? GEMMA_4_TOKEN_LIMIT : DEFAULT_TOKEN_LIMIT;
}

/** The compression point of a Gemini session, as shim's assessment takes it. */
export function geminiCompactThreshold(
  model: string | null,
  configured: number | null,
): ThresholdRule {
  const limit = geminiTokenLimit(model);
  const fraction = configured ?? DEFAULT_COMPRESSION_THRESHOLD;
  const at = Math.round(fraction * limit);
  const share = `${Math.round(fraction * 1000) / 10}%`;
  return {
    windowTokens: limit,
    compactThreshold: at,
    source: configured !== null ? 'settings' : 'default',
    detail:
      configured !== null
        ? `Gemini CLI: model.compressionThreshold ${fraction} × ${formatThousands(limit)} tokens`
        : `Gemini CLI default: ${share} of ${formatThousands(limit)} tokens`,
  };
}

/** The adapter's rule: the settings read once per session (the project's win), the model per response. */
export const geminiThreshold: ThresholdRules = {
  prepare: (session, request) => {
    const root = session.cwd ? findProjectRoot(session.cwd) : null;
    const configured = readConfiguredThreshold(request.env, root);
    const configuredModel = readConfiguredModel(request.env, root);
    return {
      inputs: { source: 'shell', recordedAt: null, detail: null },
      threshold: (state) =>
        thresholdFromRule(geminiCompactThreshold(state.model ?? configuredModel, configured)),
    };
  },
};
