/**
 * The hook payload Claude Code sends on stdin (docs/claude-code.md, "Hook events and payloads"), read leniently:
 * fields come and go between versions, and a missing one must not break the hook.
 * @module
 */
import type { HookPayload } from '../agent.ts';

/** The session id `shim doctor` probes the hooks with: they must load, but touch nothing. */

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** Parses stdin; an empty or broken payload yields a payload with only the event name. */
export function parsePayload(
  text: string,
  event: string,
): { payload: HookPayload; error: string | null } {
  let raw: Record<string, unknown> = {};
  let error: string | null = null;
  if (text.trim()) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        raw = parsed as Record<string, unknown>;
      else error = 'the hook payload is not a JSON object';
    } catch (e) {
      error = `the hook payload is not JSON: ${(e as Error).message}`;
    }
  } else {
    error = 'the hook payload is empty';
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
      compactSummary: str(raw.compact_summary),
      contextTokens:
        typeof raw.context_tokens === 'number' && Number.isFinite(raw.context_tokens)
          ? Math.max(0, Math.round(raw.context_tokens))
          : null,
      fromModel: str(raw.from_model),
      toModel: str(raw.to_model),
      raw,
    },
    error,
  };
}
