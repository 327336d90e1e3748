/**
 * Opens shim's SQLite database for short-lived processes that write concurrently and may be
 * killed at any moment: WAL, synchronous=FULL (an acknowledged checkpoint survives power loss
 * too), a busy timeout, and write transactions that take the lock up front (BEGIN IMMEDIATE:
 * deferred read-then-write transactions fail with SQLITE_BUSY under contention).
 * @module
 */
import { DatabaseSync, type DatabaseSyncInstance } from '@photostructure/sqlite';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppError } from '../../core/errors.ts';
import { ensureDir } from '../home/home.ts';
import {
  checkIntegrity,
  closeMovedConnection,
  findMovedStore,
  isAsLeftClean,
  isCorruptionError,
  recordCleanClose,
  recoverCorruptDatabase,
  waitForRecovery,
  withRecoveryLock,
} from './recover-database.ts';
import { asStorageError } from '../home/storage-failure.ts';
import { assertNotSymlink } from '../home/safe-file.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.ts';
import { beginWrite, checkpointWal, prepareConnection, useWriteAheadLog } from './dialect.ts';

export type Database = DatabaseSyncInstance;

export const DATABASE_FILE = 'shim.db';
const BUSY_TIMEOUT_MS = 10_000;

export function getDatabasePath(home: string): string {
  return join(home, DATABASE_FILE);
}

/** The file a connection was opened on (its inode), to notice when a recovery moved it aside. */
const openedFiles = new WeakMap<Database, { path: string; ino: number }>();

function inodeOf(path: string): number | null {
  try {
    return statSync(path).ino;
  } catch {
    return null;
  }
}

/** True when the connection's file is no longer the store (a recovery moved it aside). */
export function isMovedAside(db: Database): boolean {
  const opened = openedFiles.get(db);
  return opened !== undefined && inodeOf(opened.path) !== opened.ino;
}

/**
 * A write began on a store another process had moved aside (recover-database.ts): nothing was
 * written; open the store again and redo the work there.
 */
export class StoreMovedError extends AppError {
  constructor(path: string) {
    super(
      'STORE_UNAVAILABLE',
      `the store ${path} was rebuilt by another shim process during this write`,
      'run the command again',
    );
  }
}

/**
 * Runs `work` inside BEGIN IMMEDIATE … COMMIT, rolling back on any error. Once the write lock is
 * held, the file is checked to still be the store: a recovery takes that lock before it moves
 * the file, so a write either lands before the move (and is salvaged) or fails here. Inside a
 * transaction already open, `work` joins it: one commit (one fsync of the WAL under
 * `synchronous = FULL`) for writes that belong together, and the outer one rolls back on error.
 */
export function withWriteTransaction<T>(db: Database, work: () => T): T {
  if (db.isTransaction) return work();
  beginWrite(db);
  if (isMovedAside(db)) {
    db.exec('ROLLBACK');
    throw new StoreMovedError(openedFiles.get(db)!.path);
  }
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
  try {
    return openOrRecover(home, options);
  } catch (error) {
    throw asStorageError(error, home) ?? error;
  }
}

function openOrRecover(home: string, options: OpenOptions): Database {
  ensureDir(home);
  const path = getDatabasePath(home);
  // SQLite follows links: one planted as the database (or its journal) would redirect writes.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) assertNotSymlink(file);
  if (options.readOnly) return openPrepared(home, path, options);
  waitForRecovery(home);
  const seen = inodeOf(path);
  try {
    const db = openPrepared(home, path, options);
    // After an unclean state (a writer killed, the file changed by something else) the whole
    // file is checked before anything is written into it.
    const problem = seen !== null && !isAsLeftClean(home, path) ? checkIntegrity(db) : null;
    if (problem === null) return db;
    db.close();
    throw new Error(`database disk image is malformed: ${problem}`);
  } catch (error) {
    const cause = error instanceof AppError && error.cause !== undefined ? error.cause : error;
    if (!isCorruptionError(cause) || !existsSync(path)) throw error;
    return withRecoveryLock(home, () => {
      // Another process may have rebuilt it while this one waited for the lock.
      if (inodeOf(path) !== seen) return openPrepared(home, path, options);
      let fresh: Database | null = null;
      recoverCorruptDatabase(home, path, String((cause as Error).message ?? cause), () => {
        fresh = openPrepared(home, path, options);
        return fresh;
      });
      return fresh ?? openPrepared(home, path, options);
    });
  }
}

function openPrepared(home: string, path: string, options: OpenOptions): Database {
  let db: Database;
  try {
    db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS, readOnly: options.readOnly ?? false });
  } catch (error) {
    throw (
      asStorageError(error, home) ??
      new AppError(
        'STORE_UNAVAILABLE',
        `cannot open the database ${path}: ${(error as Error).message}`,
        'check that SHIM_HOME is a folder this user can write',
        { cause: error },
      )
    );
  }
  openedFiles.set(db, { path, ino: inodeOf(path) ?? -1 });
  try {
    if (!options.readOnly) {
      prepareConnection(db);
      withBusyRetry(() => {
        useWriteAheadLog(db);
        migrate(db, options.migrateTo);
      });
      restrictPermissions(path);
      recordCloseOf(db, home, path);
    }
    return db;
  } catch (error) {
    db.close();
    if (error instanceof AppError) throw error;
    throw (
      asStorageError(error, home) ??
      new AppError(
        'STORE_UNAVAILABLE',
        `cannot prepare the database ${path}: ${(error as Error).message}`,
        '`shim doctor` checks the store; a corrupt one is moved aside and rebuilt by the next command',
        { cause: error },
      )
    );
  }
}

/** A clean close records the file as it was left, so the next open can skip the check. */
function recordCloseOf(db: Database, home: string, path: string): void {
  const close = db.close.bind(db);
  Object.defineProperty(db, 'close', {
    configurable: true,
    value: () => {
      const opened = openedFiles.get(db);
      if (opened && inodeOf(opened.path) !== opened.ino) {
        // Moved aside by a recovery: closed so as not to touch the fresh store's journal files.
        closeMovedConnection(close, findMovedStore(opened.path, opened.ino));
        return;
      }
      // The driver closes late while a statement is still unfinalized (at exit), and the last
      // close copies the WAL into the file: done now, so the file is as recorded from here on.
      try {
        checkpointWal(db);
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
export function recoverDatabase(home: string, reason: string, seen?: Database): void {
  const path = getDatabasePath(home);
  const ino = seen ? (openedFiles.get(seen)?.ino ?? null) : inodeOf(path);
  withRecoveryLock(home, () => {
    // Rebuilt already by another process (the file is no longer the one that failed).
    if (!existsSync(path) || inodeOf(path) !== ino) return;
    let fresh: Database | null = null;
    recoverCorruptDatabase(home, path, reason, () => {
      fresh = openPrepared(home, path, {});
      return fresh;
    });
    (fresh as Database | null)?.close();
  });
}
