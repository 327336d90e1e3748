/**
 * The store's housekeeping reads and writes that used to live in the use cases: the integrity
 * check and the newest activity doctor reports, the directories purge must visit for git
 * snapshots, and the compaction gc runs under a size cap. SQLite's PRAGMA and VACUUM stay here.
 * @module
 */
import type { Database } from './database.ts';
import { quickCheck } from './dialect.ts';
import type { Maintenance, NewestActivity } from '../ports/maintenance.ts';

export class StoreMaintenance implements Maintenance {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** SQLite's quick_check: ['ok'] when the file is sound, else the first problems it found. */
  quickCheck(): string[] {
    return quickCheck(this.#db);
  }

  newestActivity(): NewestActivity {
    const session = this.#db
      .prepare(
        "SELECT session_id, last_seen_at FROM sessions WHERE session_id <> 'doctor' ORDER BY last_seen_at DESC LIMIT 1",
      )
      .get() as { session_id: string; last_seen_at: string } | undefined;
    const checkpoint = this.#db
      .prepare('SELECT session_id, created_at FROM checkpoints ORDER BY created_at DESC LIMIT 1')
      .get() as { session_id: string; created_at: string } | undefined;
    return {
      session: session ? { sessionId: session.session_id, lastSeenAt: session.last_seen_at } : null,
      checkpoint: checkpoint
        ? { sessionId: checkpoint.session_id, createdAt: checkpoint.created_at }
        : null,
    };
  }

  /** The working directories of checkpoints that left a git snapshot ref behind. */
  snapshotDirectories(): string[] {
    return (
      this.#db
        .prepare('SELECT DISTINCT cwd FROM checkpoints WHERE snapshot_ref IS NOT NULL')
        .all() as Array<{ cwd: string | null }>
    ).flatMap((r) => (r.cwd ? [r.cwd] : []));
  }

  /** Gives deleted rows' pages back to the file system (the file shrinks). */
  compact(): void {
    this.#db.exec('VACUUM');
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
