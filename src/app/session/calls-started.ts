/**
 * A session's state with the calls its agent's hooks saw start and its log does not hold yet
 * (store/cache/calls-started.ts; Gemini CLI writes a call once it completes): what a checkpoint
 * is built from, so a call in flight when the agent was killed is in its restore. The cached
 * state never holds them: the log brings each call once it completes.
 * @module
 */
import type { Agent } from '../../agents/agent.ts';
import type { SessionState } from '../../core/session.ts';
import { readCallsStarted } from '../../store/cache/calls-started.ts';

export type WithCallsStarted = {
  /** A copy with the calls folded in; `state` itself when there were none to fold. */
  state: SessionState;
  /** The ids of the pending calls they became. */
  added: string[];
};

export function withCallsStarted(
  state: SessionState,
  agent: Agent,
  home: string,
): WithCallsStarted {
  const fold = agent.log.foldStarted;
  if (fold === null || state.sessionId === null) return { state, added: [] };
  const calls = readCallsStarted(home, state.sessionId);
  if (calls.length === 0) return { state, added: [] };
  const copy = structuredClone(state);
  const before = new Set(copy.pendingTools.map((p) => p.id));
  for (const call of calls) fold(copy, call);
  const added = copy.pendingTools.filter((p) => !before.has(p.id)).map((p) => p.id);
  return added.length > 0 ? { state: copy, added } : { state, added: [] };
}
