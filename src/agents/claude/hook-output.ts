/**
 * Hook protocol output (docs/claude-code.md, "Hook events and payloads"). Claude Code caps hook strings at
 * 10,000 characters; longer text is cut here, where the cut can say so.
 * @module
 */
import type { HookOutput } from '../agent.ts';

/**
 * Claude Code caps a hook's output strings at 10,000 characters; longer text is saved to a file
 * and only a preview reaches the model (docs/claude-code.md, "Hook output"). Text shim injects
 * through a hook is fitted under this, with room for a cut marker.
 */
export const HOOK_TEXT_LIMIT = 9_500;

function cap(text: string): string {
  return text.length <= HOOK_TEXT_LIMIT
    ? text
    : `${text.slice(0, HOOK_TEXT_LIMIT - 40)}\n… (cut to fit the hook output limit)`;
}

/** The JSON line to print, or '' when the hook has nothing to say. */
export function renderHookOutput(event: string, output: HookOutput): string {
  const json: Record<string, unknown> = {};
  if (
    output.context &&
    [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
    ].includes(event)
  ) {
    json.hookSpecificOutput = { hookEventName: event, additionalContext: cap(output.context) };
  }
  if (output.userMessage && !['PreCompact', 'PostCompact', 'SessionEnd'].includes(event))
    json.systemMessage = cap(output.userMessage);
  if (output.block && event === 'PreCompact') {
    json.decision = 'block';
    json.reason = cap(output.block);
  }
  if (Object.keys(json).length > 0) return JSON.stringify(json);
  // Claude Code takes a PreCompact hook's plain stdout as instructions for the summary.
  if (event === 'PreCompact' && output.compactInstructions) return cap(output.compactInstructions);
  return '';
}
