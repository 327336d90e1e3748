/** Opens the store for a command and always closes it. */
import { existsSync } from 'node:fs';
import { CompactionSummaryRepository } from '../store/checkpoints/compaction-summary-repository.ts';
import { SignalHistoryRepository } from '../store/checkpoints/signal-history-repository.ts';
import { CheckpointRepository } from '../store/checkpoints/checkpoint-repository.ts';
import { CheckpointWriter } from '../store/checkpoints/checkpoint-writer.ts';
import type { Checkpoints, CheckpointWrites } from '../store/ports/checkpoints.ts';
import type { Sessions } from '../store/ports/sessions.ts';
import type { CompactionSummaries } from '../store/ports/compaction-summaries.ts';
import type { DashboardViews } from '../store/ports/dashboard.ts';
import type { Forgetting } from '../store/ports/forgetting.ts';
import type { Handoffs } from '../store/ports/handoffs.ts';
import type { Learned } from '../store/ports/learned-secrets.ts';
import type { Resumes } from '../store/ports/resumes.ts';
import type { CheckpointSearch } from '../store/ports/search.ts';
import type { SessionRewrites } from '../store/ports/session-rewrite.ts';
import type { SessionTransfers } from '../store/ports/session-transfer.ts';
import type { SignalHistory } from '../store/ports/signal-history.ts';
import type { SessionStats } from '../store/ports/stats.ts';
import type { Loops } from '../store/ports/loops.ts';
import type { SessionIssueLinks } from '../store/ports/session-issues.ts';
import type { CachedIssueFacts } from '../store/ports/issue-facts.ts';
import type { Outbox } from '../store/ports/outbox.ts';
import type { TaskPoints } from '../store/ports/task-points.ts';
import type { Maintenance } from '../store/ports/maintenance.ts';
import type { TeamWorkCopies } from '../store/ports/team-work.ts';
import { LATEST_SCHEMA_VERSION } from '../store/sqlite/migrations.ts';
import {
  getDatabasePath,
  isMovedAside,
  openDatabase,
  recoverDatabase,
  StoreMovedError,
  type Database,
} from '../store/sqlite/database.ts';
import { isCorruptionError } from '../store/sqlite/recover-database.ts';
import { AppError } from '../core/errors.ts';
import { ForgetRows } from '../store/checkpoints/forget-rows.ts';
import { HandoffRepository } from '../store/checkpoints/handoff-repository.ts';
import { LoopRepository } from '../store/loop/loop-repository.ts';
import { ResumeRepository } from '../store/checkpoints/resume-repository.ts';
import { SessionRepository } from '../store/checkpoints/session-repository.ts';
import { SessionTransfer } from '../store/checkpoints/session-transfer.ts';
import { CheckpointSearchIndex } from '../store/checkpoints/checkpoint-search.ts';
import { DashboardQueries } from '../store/checkpoints/dashboard-queries.ts';
import { IssueFactsCache } from '../store/sync/issue-facts.ts';
import { SessionIssues } from '../store/sync/session-issues.ts';
import { StatsQueries } from '../store/checkpoints/stats-queries.ts';
import { StoreMaintenance } from '../store/sqlite/store-maintenance.ts';
import { SyncOutbox } from '../store/sync/sync-outbox.ts';
import { TaskPointRepository } from '../store/estimates/task-point-repository.ts';
import { TeamWorkCache } from '../store/team/team-work-cache.ts';
import { SessionRewrite } from '../store/checkpoints/session-rewrite.ts';
import { LearnedSecrets } from '../store/checkpoints/learned-secrets.ts';

/**
 * The local store as the hooks and commands use it: one port per concept (store/ports/, in domain
 * terms), each a SQLite repository over one open database here (those only
 * commands and the background worker use are in open-command-store.ts, off the hooks' bundle).
 * The database itself stays inside: what writes several tables at once does it through a
 * repository that runs the transaction (`checkpointWriter`).
 */
export type Store = {
  checkpoints: Checkpoints;
  /** A checkpoint with its signal sample, restore outcomes and session sighting, in one commit. */
  checkpointWriter: CheckpointWrites;
  forgetting: Forgetting;
  /** A session's rows out of and into the store (shim export / import). */
  transfer: SessionTransfers;
  /** A session's stored text replaced by its redacted version (app/redact-stored-session.ts). */
  rewrite: SessionRewrites;
  /** What every session of this home learned is a secret (hashes): replaced in every store. */
  learned: Learned;
  sessions: Sessions;
  resumes: Resumes;
  handoffs: Handoffs;
  loops: Loops;
  compactionSummaries: CompactionSummaries;
  signals: SignalHistory;
  search: CheckpointSearch;
  stats: SessionStats;
  dashboard: DashboardViews;
  issues: SessionIssueLinks;
  issueFacts: CachedIssueFacts;
  outbox: Outbox;
  /** What finished tasks in past transcripts cost (`shim estimate`'s model; hooks read it). */
  taskPoints: TaskPoints;
  maintenance: Maintenance;
  teamWork: TeamWorkCopies;
};

/**
 * The shape of the rows this store keeps (its newest migration): a session file says which it
 * carries (app/transfer/session-file.ts), so a newer shim's file is refused, not misread.
 */
export const STORE_SCHEMA_VERSION = LATEST_SCHEMA_VERSION;

/** Whether `home` holds a store yet (nothing is created by asking). */
export function hasStore(home: string): boolean {
  return existsSync(getDatabasePath(home));
}

/** The repositories over an open database. */
export function createStore(db: Database): Store {
  return {
    checkpointWriter: new CheckpointWriter(db),
    forgetting: new ForgetRows(db),
    transfer: new SessionTransfer(db),
    rewrite: new SessionRewrite(db),
    learned: new LearnedSecrets(db),
    checkpoints: new CheckpointRepository(db),
    sessions: new SessionRepository(db),
    resumes: new ResumeRepository(db),
    handoffs: new HandoffRepository(db),
    loops: new LoopRepository(db),
    compactionSummaries: new CompactionSummaryRepository(db),
    signals: new SignalHistoryRepository(db),
    search: new CheckpointSearchIndex(db),
    stats: new StatsQueries(db),
    dashboard: new DashboardQueries(db),
    issues: new SessionIssues(db),
    issueFacts: new IssueFactsCache(db),
    outbox: new SyncOutbox(db),
    taskPoints: new TaskPointRepository(db),
    maintenance: new StoreMaintenance(db),
    teamWork: new TeamWorkCache(db),
  };
}

/** A store the caller closes (`close()` may be called more than once). */
export type OpenStore = Store & { close(): void };

/**
 * Opens the store for work that runs synchronously, or must not run twice (it calls a tracker
 * or a server between writes): no retry on a store rebuilt meanwhile, unlike withStore.
 */
export function openStore(home: string): OpenStore {
  const db = openDatabase(home);
  return {
    ...createStore(db),
    close() {
      if (db.isOpen) db.close();
    },
  };
}

export async function withStore<T>(
  home: string,
  work: (store: Store) => T | Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const db = openDatabase(home);
    try {
      return await work(createStore(db));
    } catch (error) {
      // Another process rebuilt the store while this one worked: nothing was written by the
      // write that noticed, so the work runs again on the fresh store. So too for whatever else
      // failed on a connection whose file was moved aside meanwhile (a read there can meet the
      // fresh store's journal files half made: "no such table", seen in the soak's racing hooks).
      if ((error instanceof StoreMovedError || isMovedAside(db)) && attempt < 3) continue;
      // A damaged page met mid-work: the store is rebuilt from what is readable, then the work
      // runs once more on it — nothing is written into a malformed database.
      if (!isCorruptionError(error)) throw error;
      if (attempt > 0)
        throw new AppError(
          'STORE_UNAVAILABLE',
          `the store is still damaged after it was rebuilt: ${(error as Error).message.split('\n')[0]}`,
          '`shim doctor` checks the store; the damaged copies are kept beside it as shim.db.corrupt-*',
          { cause: error },
        );
      if (db.isOpen) db.close();
      recoverDatabase(home, (error as Error).message, db);
      continue;
    } finally {
      if (db.isOpen) db.close();
    }
  }
}
