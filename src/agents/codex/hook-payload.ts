/**
 * The hook payload Codex sends on stdin (0.169.0: `session_id, turn_id, transcript_path`
 * (nullable), `cwd, hook_event_name, model`, plus `source` at SessionStart, `trigger` at
 * Pre/PostCompact, `prompt`, `tool_name` ("Bash", "apply_patch", "update_plan"), `tool_input`,
 * `tool_response`, `tool_use_id`), read leniently into shim's neutral payload: unknown fields are
 * kept in `raw` and ignored.
 * @module
 */
import type { HookPayload } from '../agent.ts';

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

export function parsePayload(
  text: string,
  event: string,
): { payload: HookPayload; error: string | null } {
  let raw: Record<string, unknown> = {};
  let error: string | null = null;
  if (!text.trim()) error = 'the hook payload is empty';
  else {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        raw = parsed as Record<string, unknown>;
      else error = 'the hook payload is not a JSON object';
    } catch (e) {
      error = `the hook payload is not JSON: ${(e as Error).message}`;
    }
  }
  const toolInput = raw.tool_input;
  return {
    payload: {
      event: str(raw.hook_event_name) ?? event,
      sessionId: str(raw.session_id),
      transcriptPath: str(raw.transcript_path),
      cwd: str(raw.cwd),
      source: str(raw.source),
      reason: str(raw.reason),
      trigger: str(raw.trigger),
      prompt: str(raw.prompt),
      toolName: str(raw.tool_name),
      toolInput:
        typeof toolInput === 'object' && toolInput !== null && !Array.isArray(toolInput)
          ? (toolInput as Record<string, unknown>)
          : null,
      compactSummary: null,
      contextTokens: null,
      fromModel: null,
      toModel: null,
      raw,
    },
    error,
  };
}
