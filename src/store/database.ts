/**
 * Opens shim's SQLite database for short-lived processes that write concurrently and may be
 * killed at any moment: WAL, synchronous=FULL (an acknowledged checkpoint survives power loss
 * too), a busy timeout, and write transactions that take the lock up front (BEGIN IMMEDIATE:
 * deferred read-then-write transactions fail with SQLITE_BUSY under contention).
 * @module
 */
import { DatabaseSync, type DatabaseSyncInstance } from '@photostructure/sqlite';
import { chmodSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppError } from '../core/errors.ts';
import { ensureDir } from './home.ts';
import {
  checkIntegrity,
  isAsLeftClean,
  isCorruptionError,
  recordCleanClose,
  recoverCorruptDatabase,
} from './recover-database.ts';
import { assertNotSymlink } from './safe-file.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.ts';

export type Database = DatabaseSyncInstance;

export const DATABASE_FILE = 'shim.db';
const BUSY_TIMEOUT_MS = 10_000;

export function getDatabasePath(home: string): string {
  return join(home, DATABASE_FILE);
}

/** Runs `work` inside BEGIN IMMEDIATE … COMMIT, rolling back on any error. */
export function withWriteTransaction<T>(db: Database, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

export function getSchemaVersion(db: Database): number {
  const table = db
    .prepare(
      "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
    )
    .get();
  if (!table) return 0;
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_version').get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

/** Applies every migration above the database's version, each in its own transaction. */
export function migrate(db: Database, upTo = LATEST_SCHEMA_VERSION): number {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
  );
  let version = getSchemaVersion(db);
  if (version > LATEST_SCHEMA_VERSION) {
    throw new AppError(
      'STORE_UNAVAILABLE',
      `the database is at schema version ${version}, newer than this shim knows (${LATEST_SCHEMA_VERSION})`,
      'upgrade shim, or point SHIM_HOME elsewhere',
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= version || migration.version > upTo) continue;
    withWriteTransaction(db, () => {
      // Another process may have migrated while this one waited for the lock.
      if (getSchemaVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(
        migration.version,
        new Date().toISOString(),
      );
    });
    version = migration.version;
  }
  return version;
}

const BUSY = /database is locked|SQLITE_BUSY|database table is locked/i;
const RETRY_FOR_MS = 15_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Retries `work` while SQLite answers BUSY (many processes opening a new database at once). */
export function withBusyRetry<T>(work: () => T): T {
  const deadline = Date.now() + RETRY_FOR_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if (!BUSY.test(String((error as Error).message)) || Date.now() > deadline) throw error;
      sleepSync(Math.min(250, 10 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random()));
    }
  }
}

export type OpenOptions = { migrateTo?: number; readOnly?: boolean };

/**
 * Opens (creating if needed) SHIM_HOME/shim.db, owner-only, migrated to the latest schema. A
 * corrupt database is moved aside and replaced by a fresh one holding every row still readable
 * (recover-database.ts): shim never writes into, or acknowledges into, a malformed store.
 */
export function openDatabase(home: string, options: OpenOptions = {}): Database {
  ensureDir(home);
  const path = getDatabasePath(home);
  // SQLite follows links: one planted as the database (or its journal) would redirect writes.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) assertNotSymlink(file);
  if (options.readOnly) return openPrepared(home, path, options);
  const existed = existsSync(path);
  try {
    const db = openPrepared(home, path, options);
    // After an unclean state (a writer killed, the file changed by something else) the whole
    // file is checked before anything is written into it.
    const problem = existed && !isAsLeftClean(home, path) ? checkIntegrity(db) : null;
    if (problem === null) return db;
    db.close();
    throw new Error(`database disk image is malformed: ${problem}`);
  } catch (error) {
    const cause = error instanceof AppError && error.cause !== undefined ? error.cause : error;
    if (!isCorruptionError(cause) || !existsSync(path)) throw error;
    let fresh: Database | null = null;
    recoverCorruptDatabase(home, path, String((cause as Error).message ?? cause), () => {
      fresh = openPrepared(home, path, options);
      return fresh;
    });
    return fresh ?? openPrepared(home, path, options);
  }
}

function openPrepared(home: string, path: string, options: OpenOptions): Database {
  let db: Database;
  try {
    db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS, readOnly: options.readOnly ?? false });
  } catch (error) {
    throw new AppError(
      'STORE_UNAVAILABLE',
      `cannot open the database ${path}: ${(error as Error).message}`,
      'check that SHIM_HOME is writable',
      { cause: error },
    );
  }
  try {
    if (!options.readOnly) {
      db.exec('PRAGMA synchronous = FULL');
      db.exec('PRAGMA foreign_keys = ON');
      withBusyRetry(() => {
        // Switching to WAL takes an exclusive lock and can fail BUSY without waiting; it is
        // persistent, so only a new database needs it.
        const mode = (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string })
          .journal_mode;
        if (mode !== 'wal') db.exec('PRAGMA journal_mode = WAL');
        migrate(db, options.migrateTo);
      });
      restrictPermissions(path);
      recordCloseOf(db, home, path);
    }
    return db;
  } catch (error) {
    db.close();
    if (error instanceof AppError) throw error;
    throw new AppError(
      'STORE_UNAVAILABLE',
      `cannot prepare the database ${path}: ${(error as Error).message}`,
      'if it is corrupt, move it aside; shim will start a new one',
      { cause: error },
    );
  }
}

/** A clean close records the file as it was left, so the next open can skip the check. */
function recordCloseOf(db: Database, home: string, path: string): void {
  const close = db.close.bind(db);
  Object.defineProperty(db, 'close', {
    configurable: true,
    value: () => {
      // The driver closes late while a statement is still unfinalized (at exit), and the last
      // close copies the WAL into the file: done now, so the file is as recorded from here on.
      try {
        db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } catch {
        // busy with another process's transaction: the next open then checks the file
      }
      close();
      recordCleanClose(home, path);
    },
  });
}

function restrictPermissions(path: string): void {
  for (const file of [dirname(path), path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, file === dirname(path) ? 0o700 : 0o600);
    } catch {
      // -wal / -shm may not exist yet; they inherit the umask of the creating process
    }
  }
}

/**
 * For corruption found in the middle of work (SQLite reports it when it reads a damaged page):
 * moves the database aside and builds a fresh one from what is readable. The caller's
 * connection must be closed first.
 */
export function recoverDatabase(home: string, reason: string): void {
  const path = getDatabasePath(home);
  if (!existsSync(path)) return;
  let fresh: Database | null = null;
  recoverCorruptDatabase(home, path, reason, () => {
    fresh = openPrepared(home, path, {});
    return fresh;
  });
  (fresh as Database | null)?.close();
}
