/**
 * What waits to be sent to an issue tracker or the team store, claimed and retried until delivered
 * (docs/sync.md). store/sync/sync-outbox.ts implements it.
 * @module
 */
import type { IssueRef, Tracker } from '../../core/sync/issue-ref.ts';

export type OutboxAction = 'comment' | 'label' | 'state' | 'facts' | 'observation';

export type OutboxDraft = {
  dedupeKey: string;
  issue: IssueRef;
  action: OutboxAction;
  /**
   * comment: { body, marker }; label: { name }; state: { name }; facts: {} (read the issue);
   * observation (claude-mem): { title, text, metadata (JSON) }.
   */
  payload: Record<string, string>;
  sessionId?: string | null;
  checkpointId?: string | null;
};

export type OutboxEntry = OutboxDraft & {
  id: number;
  createdAt: string;
  /** stale: not sent because it waited past its moment (sync.staleAfterHours). */
  status: 'pending' | 'delivered' | 'failed' | 'stale';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  deliveredAt: string | null;
  remoteId: string | null;
};

export type OutboxCounts = {
  pending: number;
  delivered: number;
  failed: number;
  /** Dropped unsent: they waited past their moment. */
  stale: number;
  oldestPending: string | null;
  lastError: string | null;
};

export interface Outbox {
  /** Adds the drafts not added before (by dedupe key); returns how many were new. */
  enqueue(drafts: readonly OutboxDraft[], now: string): number;
  /** Leases the oldest entry due at `now` to `owner` for `leaseMs`; null when none is due. */
  claim(owner: string, now: Date, leaseMs: number): OutboxEntry | null;
  delivered(id: number, remoteId: string | null, now: string): void;
  /** Due again at `retryAt`; `failed` for good when `giveUp`. */
  deferred(id: number, error: string, retryAt: string, giveUp: boolean): void;
  /** Not sent, and never will be: it waited past its moment. */
  stale(id: number, why: string): void;
  /**
   * Entries put off for want of a token (their error starts with `why`) due now, their error
   * cleared: the token is there now. Returns how many.
   */
  wakeWaiting(tracker: Tracker, why: string, now: string): number;
  /** The trackers with entries put off for want of a token (errors starting with one of `whys`). */
  trackersWaiting(whys: readonly string[]): Tracker[];
  /** The earliest time an entry becomes due (pending and not leased beyond it); null when none. */
  nextDue(): string | null;
  counts(): OutboxCounts;
  list(limit?: number): OutboxEntry[];
}
