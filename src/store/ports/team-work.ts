/**
 * This machine's copy of the team's newest unfinished work, pulled for the startup restore.
 * store/team/team-work-cache.ts implements it.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';

export type TeamWorkReason = 'interrupted' | 'handoff' | 'usage_limit';

export type TeamWork = {
  projectId: string;
  checkpoint: Checkpoint;
  sessionId: string;
  machine: string;
  osUser: string;
  createdAt: string;
  reason: TeamWorkReason;
  /** The team handoff it came from (marked picked up on the server at the next pull). */
  handoffId?: string | null;
  pulledAt: string;
  takenAt: string | null;
};

export interface TeamWorkCopies {
  /** Keeps `work` as the project's newest; the same checkpoint again keeps its taken mark. */
  put(work: Omit<TeamWork, 'takenAt'>): void;
  /** Replaces the body kept of `checkpoint` (the same id), taken or not (a redacted version). */
  replaceCheckpoint(checkpoint: Checkpoint): void;
  /** The project's newest unfinished team work not taken yet. */
  getUntaken(projectId: string): TeamWork | null;
  /** Marks it taken by `sessionId`; false when another session took it first. */
  take(projectId: string, checkpointId: string, sessionId: string, at: string): boolean;
  /** Team handoffs taken here: the worker marks them picked up on the server. */
  listTakenHandoffs(): Array<{ handoffId: string; takenBy: string; takenAt: string }>;
  list(): TeamWork[];
}
