/**
 * The local store's sessions, in domain terms: when each was seen, whether it ended cleanly, and
 * which session it was restored from. store/checkpoints/session-repository.ts implements it.
 * @module
 */
import type { AgentId } from '../../core/agent-id.ts';

export type SessionRecord = {
  sessionId: string;
  transcriptPath: string | null;
  cwd: string | null;
  startedAt: string;
  lastSeenAt: string;
  endedAt: string | null;
  endReason: string | null;
  cliVersion: string | null;
  model: string | null;
  /** The agent whose session it is (core/agent-id.ts; rows from before agents: `claude`). */
  agent: string;
  /** The earlier session (and its checkpoint) this one was restored from; absent when none. */
  resumedFrom?: { sessionId: string; checkpointId: string };
};

/** What a sighting of a session says of it; a field left out keeps what the store knows. */
export type SessionSighting = {
  sessionId: string;
  transcriptPath?: string | null;
  cwd?: string | null;
  cliVersion?: string | null;
  model?: string | null;
  /** Whose session it is: every sighting says (rows from before agents are Claude Code's). */
  agent: AgentId;
};

export interface Sessions {
  /** Records that a session was seen (creating it on first sight); keeps known fields. */
  touch(session: SessionSighting, at: string): void;
  /** Records a clean end (the agent's SessionEnd reason) of `agent`'s session. */
  end(sessionId: string, agent: AgentId, reason: string, at: string): void;
  /** The session runs again (`--continue`, `--resume`): an earlier clean end no longer holds. */
  reopen(sessionId: string): void;
  /** Records that `sessionId` was restored from a checkpoint of an earlier session. */
  setResumedFrom(
    sessionId: string,
    from: { sessionId: string; checkpointId: string },
    at: string,
  ): void;
  /** The session seen most recently in the project at `root`, other than `excludeSession`. */
  getLatestInProject(root: string, excludeSession?: string): SessionRecord | null;
  get(sessionId: string): SessionRecord | null;
  /** Every session, newest activity first (the dashboard's list). */
  list(): SessionRecord[];
}
