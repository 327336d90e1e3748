/** A Gemini session's compression point from the user's and the project's settings. @module */
import { readConfiguredModel, readConfiguredThreshold, type GeminiEnv } from './sessions.ts';
import { geminiCompactThreshold, type GeminiThreshold } from './threshold.ts';

export function resolveGeminiThreshold(
  model: string | null,
  env: GeminiEnv,
  projectRoot: string | null,
): GeminiThreshold {
  return geminiCompactThreshold(
    model ?? readConfiguredModel(env, projectRoot),
    readConfiguredThreshold(env, projectRoot),
  );
}
