/**
 * Relay (config `relay`): instead of letting Claude Code replace the conversation with its lossy
 * summary, the session is handed to a fresh context. At L3 the user and the model are told a
 * fresh context is ready; after `/clear`, SessionStart(clear) injects shim's full restore.
 * Pure texts.
 * @module
 */

export const RELAY_USER_NOTE =
  "shim relay: a fresh context is ready. Type /clear when the current step is done: shim restores everything this session holds (every request, the task list, decisions, files, the last checks) into the new context, instead of Claude Code's lossy summary.";

export const RELAY_MODEL_NOTE =
  '[shim] Relay is on: a fresh context is ready. Finish the step in hand, then tell the user to type /clear; shim will restore the full state of this session into the new context. Do not start a large new step before that.';

export function relayExplanation(sessionId: string): string {
  return `The user cleared the context to relay the work of session ${sessionId} into a fresh window (shim config "relay"): this is that session's full state, not a summary.`;
}
