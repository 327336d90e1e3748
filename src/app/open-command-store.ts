/**
 * The store as commands and the background worker see it: the hooks' repositories (open-store.ts)
 * and those only they use — the team replication queue and its row source, the shards' issues,
 * the estimates kept for `--accuracy`. Apart, so the hooks' bundle carries none of them.
 * @module
 */
import { openDatabase, type Database } from '../store/sqlite/database.ts';
import { ShardIssues } from '../store/sync/shard-issues.ts';
import { TaskEstimateRepository } from '../store/estimates/task-estimate-repository.ts';
import { TeamReplicationQueue } from '../store/team/team-replication-queue.ts';
import { TeamRowSource } from '../store/team/team-row-source.ts';
import { createStore, type Store } from './open-store.ts';
import type { ShardIssueLinks } from '../store/ports/shard-issues.ts';
import type { TaskEstimates } from '../store/ports/task-estimates.ts';
import type { TeamQueue } from '../store/ports/team-queue.ts';
import type { TeamRowBodies } from '../store/ports/team-rows.ts';

export type CommandStore = Store & {
  /** The rows waiting for the team store, and where their bodies are read from. */
  teamQueue: TeamQueue;
  teamRows: TeamRowBodies;
  /** The sub-issue opened for each shard of a plan (`shim shard --issues`). */
  shardIssues: ShardIssueLinks;
  /** Estimates given, kept for `shim estimate --accuracy`. */
  taskEstimates: TaskEstimates;
};

/** Every repository over an open database. */
export function createCommandStore(db: Database): CommandStore {
  return {
    ...createStore(db),
    teamQueue: new TeamReplicationQueue(db),
    teamRows: new TeamRowSource(db),
    shardIssues: new ShardIssues(db),
    taskEstimates: new TaskEstimateRepository(db),
  };
}

/**
 * Opens the store for a command's work that must not run twice (it calls a tracker or a server
 * between writes): no retry on a store rebuilt meanwhile. The caller closes it.
 */
export function openCommandStore(home: string): CommandStore & { close(): void } {
  const db = openDatabase(home);
  return {
    ...createCommandStore(db),
    close() {
      if (db.isOpen) db.close();
    },
  };
}
