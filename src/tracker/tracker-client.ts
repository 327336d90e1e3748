/**
 * What shim asks of an issue tracker, whichever it is (GitHub, Linear): an issue's title and
 * state, its comments (to find one shim already posted), a comment, a label, a state move, sub-
 * issues for shards. A third tracker is one more implementation of this.
 * @module
 */
import type { IssueRef } from '../core/sync/issue-ref.ts';

export type IssueFacts = { title: string; state: string; url: string };

export type AuthCheck = { ok: true; who: string } | { ok: false; message: string };

export interface TrackerClient {
  readonly name: string;
  /** Who the token belongs to, or why the tracker refused it. */
  checkAuth(): Promise<AuthCheck>;
  getIssue(ref: IssueRef): Promise<IssueFacts>;
  /** The id of a comment on the issue whose body holds `marker`, if one was posted. */
  findComment(ref: IssueRef, marker: string): Promise<string | null>;
  /** Posts a comment; returns its id. */
  addComment(ref: IssueRef, body: string): Promise<string>;
  addLabel(ref: IssueRef, label: string): Promise<void>;
  /** Moves the issue to the named workflow state (never closes one). */
  moveTo(ref: IssueRef, state: string): Promise<void>;
  /** A new issue under `parent` (a shard of its plan); returns how to name it. */
  createSubIssue(parent: IssueRef, title: string, body: string): Promise<IssueRef>;
  /** Marks an issue shim created as done (a finished shard); never the user's own issue. */
  completeSubIssue(ref: IssueRef): Promise<void>;
}

/** A failure the tracker answered: retrying will not help (bad token, no such issue). */
export class PermanentTrackerError extends Error {
  override name = 'PermanentTrackerError';
}
