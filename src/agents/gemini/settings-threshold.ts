/** A Gemini session's compression point from the user's and the project's settings. @module */
import type { CompactThreshold } from '../../core/compact-threshold.ts';
import { readConfiguredModel, readConfiguredThreshold, type GeminiEnv } from './sessions.ts';
import { geminiCompactThreshold } from './threshold.ts';

export function resolveGeminiThreshold(
  model: string | null,
  env: GeminiEnv,
  projectRoot: string | null,
): CompactThreshold {
  return geminiCompactThreshold(
    model ?? readConfiguredModel(env, projectRoot),
    readConfiguredThreshold(env, projectRoot),
  );
}
