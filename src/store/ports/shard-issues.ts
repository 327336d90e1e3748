/**
 * The sub-issue opened for each shard of a plan (`shim shard --issues`). store/sync/shard-issues.ts
 * implements it.
 * @module
 */
import type { IssueRef } from '../../core/sync/issue-ref.ts';

export type ShardIssue = {
  shardFile: string;
  issue: IssueRef;
  parentKey: string;
  createdAt: string;
  doneAt: string | null;
};

export interface ShardIssueLinks {
  get(shardFile: string): ShardIssue | null;
  record(shardFile: string, issue: IssueRef, parentKey: string, now: string): void;
  markDone(shardFile: string, now: string): void;
}
