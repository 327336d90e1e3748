/**
 * What a shim hook prints for Gemini CLI (0.61.0): `hookSpecificOutput.additionalContext` reaches
 * the model from SessionStart (the first prompt), BeforeAgent (this prompt) and AfterTool (this
 * tool's result), each wrapped by the CLI in `<hook_context>`; `systemMessage` is shown to the
 * user. shim never blocks Gemini (no `decision`, exit 0 always). docs/agents.md, "Gemini CLI".
 * @module
 */
import type { GeminiHookEvent } from './hook-payload.ts';

/** Gemini takes long hook output; a restore is kept within what a prompt comfortably holds. */
export const GEMINI_HOOK_TEXT_LIMIT = 20_000;

export type GeminiHookOutput = {
  context?: string | null;
  userMessage?: string | null;
  block?: string | null;
  compactInstructions?: string | null;
};

const CONTEXT_EVENTS: readonly GeminiHookEvent[] = ['SessionStart', 'BeforeAgent', 'AfterTool'];

function cap(text: string): string {
  return text.length <= GEMINI_HOOK_TEXT_LIMIT
    ? text
    : `${text.slice(0, GEMINI_HOOK_TEXT_LIMIT - 40)}\n… (cut to fit the hook output limit)`;
}

/** The JSON line to print, or '' when the hook has nothing to say. */
export function renderGeminiOutput(event: GeminiHookEvent, output: GeminiHookOutput): string {
  const json: Record<string, unknown> = {};
  if (output.context && CONTEXT_EVENTS.includes(event))
    json.hookSpecificOutput = { hookEventName: event, additionalContext: cap(output.context) };
  if (output.userMessage && event !== 'SessionEnd') json.systemMessage = cap(output.userMessage);
  return Object.keys(json).length > 0 ? JSON.stringify(json) : '';
}
