/**
 * Shards as sub-issues (SHD-003/004): `shim shard --issues` makes one sub-issue per shard under
 * the plan's issue, and each is ticked off once its shard's steps are all ticked in the plan
 * (`shim shard --status`, and after each `shim loop --shards` run). These run in commands the
 * user started, not in hooks: they talk to the tracker directly and say what failed.
 * @module
 */
import { basename } from 'node:path';
import { formatIssue, type IssueRef } from '../../core/sync/issue-ref.ts';
import { syncMarker } from '../../core/sync/sync-note.ts';
import type { ShardProgress } from '../../core/plan/shard-plan.ts';
import { openCommandStore } from '../open-command-store.ts';
import { getTrackerAccess } from './tracker-access.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type ShardIssueResult = { file: string; issue: string; created: boolean };

export async function createShardIssues(request: {
  home: string;
  env: Env;
  parent: IssueRef;
  shards: ReadonlyArray<{ file: string; title: string; body: string }>;
  now: string;
}): Promise<ShardIssueResult[]> {
  const access = await getTrackerAccess(
    request.parent.tracker,
    request.env,
    request.parent.repo ?? null,
  );
  if (!access.ok) throw new Error(`${access.why}: ${access.fix}`);
  const opened = openCommandStore(request.home);
  try {
    const store = opened.shardIssues;
    const results: ShardIssueResult[] = [];
    for (const shard of request.shards) {
      const known = store.get(shard.file);
      if (known && known.parentKey === request.parent.key) {
        results.push({ file: shard.file, issue: formatIssue(known.issue), created: false });
        continue;
      }
      const issue = await access.client.createSubIssue(request.parent, shard.title, shard.body);
      store.record(shard.file, issue, request.parent.key, request.now);
      results.push({ file: shard.file, issue: formatIssue(issue), created: true });
    }
    return results;
  } finally {
    opened.close();
  }
}

/** Ticks off the sub-issue of every finished shard not ticked yet; returns those it ticked. */
export async function completeFinishedShards(request: {
  home: string;
  env: Env;
  progress: readonly ShardProgress[];
  now: string;
}): Promise<{ ticked: string[]; failed: string[] }> {
  const opened = openCommandStore(request.home);
  const ticked: string[] = [];
  const failed: string[] = [];
  try {
    const store = opened.shardIssues;
    for (const shard of request.progress) {
      if (shard.done < shard.steps) continue;
      const known = store.get(shard.file);
      if (!known || known.doneAt) continue;
      const access = await getTrackerAccess(
        known.issue.tracker,
        request.env,
        known.issue.repo ?? null,
      );
      try {
        if (!access.ok) throw new Error(`${access.why}: ${access.fix}`);
        await access.client.completeSubIssue(known.issue);
        // The parent hears of it once (a marker, as every comment shim posts).
        const parent: IssueRef = { ...known.issue, key: known.parentKey };
        const marker = syncMarker(`shard-done:${known.issue.tracker}:${known.issue.key}`);
        if (!(await access.client.findComment(parent, marker)))
          await access.client.addComment(
            parent,
            `### shim: shard ${basename(shard.file)} is done\n\nIts ${shard.steps} step${shard.steps === 1 ? '' : 's'} are ticked in the plan; ${formatIssue(known.issue)} is closed as completed.\n\n${marker}`,
          );
        store.markDone(shard.file, request.now);
        ticked.push(formatIssue(known.issue));
      } catch (error) {
        failed.push(
          `${formatIssue(known.issue)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  } finally {
    opened.close();
  }
  return { ticked, failed };
}
