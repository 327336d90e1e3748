/**
 * shim's decision in Codex's hook protocol (docs/agents.md, "Codex CLI", verified with 0.169.0):
 * only SessionStart's `hookSpecificOutput.additionalContext` reaches the model (as a developer
 * message after the environment context); PreCompact's stdout does not reach the summary, and
 * shim never blocks a Codex compaction, so every other event prints nothing.
 * @module
 */
import type { HookOutput } from '../agent.ts';

/** Text shim injects through one Codex hook, cut with a marker past this. */
export const CODEX_HOOK_TEXT_LIMIT = 9_500;

function cap(text: string): string {
  return text.length <= CODEX_HOOK_TEXT_LIMIT
    ? text
    : `${text.slice(0, CODEX_HOOK_TEXT_LIMIT - 40)}\n… (cut to fit the hook output limit)`;
}

export function renderCodexHookOutput(event: string, output: HookOutput): string {
  if (event === 'SessionStart' && output.context) {
    return JSON.stringify({
      hookSpecificOutput: { hookEventName: event, additionalContext: cap(output.context) },
    });
  }
  return '';
}
