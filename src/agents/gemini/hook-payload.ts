/**
 * The hook payload Gemini CLI sends on stdin (0.61.0: `{session_id, transcript_path, cwd,
 * hook_event_name, timestamp}` plus each event's fields: `source`, `reason`, `trigger`, `prompt`,
 * `tool_name`, `tool_input`, `tool_response`), read leniently into the shape shim's handlers take,
 * with Gemini's event named as shim's (Claude Code's spelling) and its shell, read, write and
 * edit tools named as the handlers know them. docs/agents.md, "Gemini CLI".
 * @module
 */
import { isObj } from './chat-record.ts';

/** Gemini's events shim registers for, and the shim event each one is handled as. */
export const GEMINI_HOOK_EVENTS = {
  SessionStart: 'SessionStart',
  BeforeAgent: 'UserPromptSubmit',
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  PreCompress: 'PreCompact',
  AfterAgent: 'Stop',
  SessionEnd: 'SessionEnd',
} as const;

export type GeminiHookEvent = keyof typeof GEMINI_HOOK_EVENTS;

/**
 * Every event shim's hooks are registered for in Gemini's settings: those the hook runner handles,
 * and BeforeModel, answered on its own (request-unescape.ts, dist/gemini-before-model.cjs).
 */
export const GEMINI_SETTINGS_EVENTS: readonly string[] = [
  ...Object.keys(GEMINI_HOOK_EVENTS),
  'BeforeModel',
];

export function isGeminiHookEvent(event: string): event is GeminiHookEvent {
  return Object.hasOwn(GEMINI_HOOK_EVENTS, event);
}

/** Tools whose meaning shim's handlers check by name (risky commands, files changed). */
const TOOL_NAMES: Record<string, string> = {
  run_shell_command: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  replace: 'Edit',
};

export type GeminiHookPayload = {
  event: string;
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  source: string | null;
  reason: string | null;
  trigger: string | null;
  prompt: string | null;
  toolName: string | null;
  toolInput: Record<string, unknown> | null;
  compactSummary: string | null;
  contextTokens: number | null;
  fromModel: string | null;
  toModel: string | null;
  raw: Record<string, unknown>;
};

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** Parses stdin; an empty or broken payload yields one with only the event name and an error. */
export function parseGeminiPayload(
  text: string,
  event: GeminiHookEvent,
): { payload: GeminiHookPayload; error: string | null } {
  let raw: Record<string, unknown> = {};
  let error: string | null = null;
  if (!text.trim()) error = 'the Gemini CLI hook payload is empty';
  else {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (isObj(parsed)) raw = parsed;
      else error = 'the Gemini CLI hook payload is not a JSON object';
    } catch (e) {
      error = `the Gemini CLI hook payload is not JSON: ${(e as Error).message}`;
    }
  }
  const tool = str(raw.tool_name);
  return {
    payload: {
      event: GEMINI_HOOK_EVENTS[event],
      sessionId: str(raw.session_id),
      transcriptPath: str(raw.transcript_path),
      cwd: str(raw.cwd),
      source: str(raw.source),
      reason: str(raw.reason),
      trigger: str(raw.trigger),
      prompt: str(raw.prompt),
      toolName: tool ? (TOOL_NAMES[tool] ?? tool) : null,
      toolInput: isObj(raw.tool_input) ? raw.tool_input : null,
      compactSummary: null,
      contextTokens: null,
      fromModel: null,
      toModel: null,
      raw,
    },
    error,
  };
}
