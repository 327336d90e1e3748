/**
 * The issue each session works on, and how it was found. store/sync/session-issues.ts implements it.
 * @module
 */
import type { IssueRef, IssueSource } from '../../core/sync/issue-ref.ts';

export interface SessionIssueLinks {
  get(sessionId: string): { ref: IssueRef; source: IssueSource; updatedAt: string } | null;
  set(sessionId: string, ref: IssueRef, source: IssueSource, now: string): void;
  /** No issue for this session, whatever its branch or requests say (`shim link --clear`). */
  clear(sessionId: string, now: string): void;
  /** Whether `shim link --clear` was said for this session. */
  isCleared(sessionId: string): boolean;
}
