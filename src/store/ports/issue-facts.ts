/**
 * An issue's title, state and address as last read from its tracker. store/sync/issue-facts.ts
 * implements it.
 * @module
 */
import type { IssueRef } from '../../core/sync/issue-ref.ts';

export type StoredIssueFacts = {
  title: string | null;
  state: string | null;
  url: string | null;
  lastNote: string | null;
  fetchedAt: string;
};

export interface CachedIssueFacts {
  get(ref: IssueRef): StoredIssueFacts | null;
  /** Records what was read; a field left undefined keeps its stored value. */
  put(ref: IssueRef, facts: Partial<Omit<StoredIssueFacts, 'fetchedAt'>>, now: string): void;
}
