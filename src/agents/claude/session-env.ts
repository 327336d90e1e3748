/**
 * The environment for a `claude` that shim starts (the loop's agent, `shim rescue`). Claude Code
 * gives every child process the markers of its own session; a `claude` started with them believes
 * it is a nested child session and (2.1.330, interactive) writes no transcript, so shim would have
 * nothing to read or restore (docs/claude-code.md, "Sessions shim starts").
 * @module
 */
import type { Env } from '../../store/home/home.ts';

/**
 * What a Claude Code session puts into its children's environment (seen in a hook's environment
 * under 2.1.330). None of it belongs to a new, independent session; the messaging token is the
 * parent's and must not travel further.
 */
export const PARENT_SESSION_VARIABLES = [
  'CLAUDECODE',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_SESSION_ATTENDED',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_MESSAGING_SOCKET',
  'CLAUDE_CODE_MESSAGING_TOKEN',
  'CLAUDE_PID',
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_EFFORT',
  'AI_AGENT',
] as const;

/**
 * `env` without the parent session's markers, and with persistence forced on: the variable
 * Claude Code checks first, so a marker that slips through (a future name) still cannot turn the
 * transcript off.
 */
export function envForNewSession(env: Env): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env };
  for (const name of PARENT_SESSION_VARIABLES) delete out[name];
  out.CLAUDE_CODE_FORCE_SESSION_PERSISTENCE = '1';
  return out;
}

/** The markers of an enclosing Claude Code session found in `env` (empty when there is none). */
export function parentSessionMarkers(env: Env): string[] {
  return PARENT_SESSION_VARIABLES.filter((name) => env[name] !== undefined);
}
