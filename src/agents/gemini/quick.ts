/**
 * Gemini CLI as the answer without a look needs it (agents/agent.ts, `QuickAgent`): small enough
 * for dist/hook-quick.cjs, and the part of its agent value (agent.ts) that says so. Its hooks'
 * payloads name the tools as shim's handlers know them (hook-payload.ts: `run_shell_command` is
 * `Bash`, `write_file` `Write`, `replace` `Edit`).
 * @module
 */
import type { QuickAgent } from '../agent.ts';
import { renderGeminiOutput } from './hook-output.ts';
import { GEMINI_HOOK_EVENTS, isGeminiHookEvent, parseGeminiPayload } from './hook-payload.ts';
import { geminiTail } from './tail-look.ts';

export const geminiQuick = {
  id: 'gemini',
  name: 'Gemini CLI',
  hooks: {
    parse: (text: string, event: string) =>
      isGeminiHookEvent(event)
        ? parseGeminiPayload(text, event)
        : parseGeminiPayload(text, 'SessionStart'),
    render: (event, output) => {
      const geminiEvent = Object.entries(GEMINI_HOOK_EVENTS).find(
        ([name, shim]) => name === event || shim === event,
      )?.[0];
      return geminiEvent && isGeminiHookEvent(geminiEvent)
        ? renderGeminiOutput(geminiEvent, output)
        : '';
    },
  },
  capabilities: {
    milestoneTools: /^(?:Bash|write_todos)$/,
    fileTools: /^(?:Write|Edit)$/,
  },
  log: { tail: geminiTail },
} as const satisfies QuickAgent;
