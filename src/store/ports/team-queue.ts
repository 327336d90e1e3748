/**
 * The rows waiting for the team store, in order. store/team/team-replication-queue.ts implements it.
 * @module
 */
import type { TeamRowKind } from './team-repository.ts';

export type TeamEntry = {
  outboxId: number;
  kind: TeamRowKind;
  /** The row's id in the local store (a loop event: `<run>:<seq>`). */
  rowId: string;
  sessionId: string | null;
  at: string;
  attempts: number;
};

/** What waits for the team store and how its sending goes (`shim team status`, doctor). */
export type TeamQueueStatus = {
  waiting: number;
  oldestWaiting: string | null;
  nextAttemptAt: string | null;
  lastError: string | null;
  lastDelivered: string | null;
  delivered: number;
  setAside: number;
  lastSetAside: string | null;
};

export interface TeamQueue {
  /** Queues every row written since the marks; returns how many entries were added. */
  sweep(): number;
  /**
   * Leases up to `limit` of the oldest waiting team entries to `owner` — due or not: it is called
   * once the server answered, and then everything waiting goes (the backoff says only when to try).
   */
  claimBatch(owner: string, now: Date, leaseMs: number, limit: number): TeamEntry[];
  /** Marks the entries sent (only while `owner` still holds them: a lease taken over is not undone). */
  delivered(outboxIds: readonly number[], owner: string, now: string): void;
  /** Leased entries left unsent (the batch was full): free again, the attempt not counted. */
  release(outboxIds: readonly number[]): void;
  /** A row the server refuses for good: set aside with the reason, never sent again. */
  setAside(outboxId: number, reason: string): void;
  /** Due again at `retryAt` with the error; team entries are never given up (nothing is lost). */
  deferred(outboxIds: readonly number[], error: string, retryAt: string): void;
  /**
   * What waits, how old the oldest waiting row is, when it is tried next, the newest error, the
   * newest delivery, and the rows set aside (with the newest reason).
   */
  status(): TeamQueueStatus;
  /** A named mark in team_marks (the worker's daily retention, for one). */
  getMark(kind: string): string | null;
  setMark(kind: string, mark: string): void;
  /** Delivered entries older than `before` are dropped (the rows themselves are on the server). */
  prune(before: string): number;
}
