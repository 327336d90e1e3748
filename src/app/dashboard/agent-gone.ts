/**
 * Whether a session's agent is known to be gone: the hooks recorded its process, that process is
 * no longer there, and nothing was written for a while (a session still writing counts as
 * running whatever the process table says). The Now board and the session list ask alike.
 * @module
 */
import { isAgentAlive } from '../../capture/agent-process.ts';
import { loadHookMemory } from '../../store/cache/hook-memory.ts';

/** A session whose agent process is gone still counts as running this long after its last write. */
export const GONE_AFTER_MS = 60 * 1000;

export function isSessionAgentGone(home: string, sessionId: string, quietMs: number): boolean {
  return (
    quietMs > GONE_AFTER_MS && isAgentAlive(loadHookMemory(home, sessionId).agentPid) === false
  );
}
