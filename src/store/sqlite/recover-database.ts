/**
 * A corrupt store is never written into. When SQLite says the database is malformed (or not a
 * database at all), or an integrity check after an unclean state fails, the file is moved aside
 * as `shim.db.corrupt-<time>` (with its journal files), a fresh store is created, and every row
 * still readable from the old one is copied over. A notice records it, so the CLI, the hooks and
 * `shim doctor` can each say so once.
 *
 * One recovery at a time: a recovering process holds an exclusive SQLite lock on
 * `store-recovery.lock` (released by the OS if it is killed) and leaves a marker beside it; a
 * process opening the store while the marker is there waits for the lock, and a process that
 * found the store corrupt re-checks it once it has the lock (another may have rebuilt it
 * meanwhile). The recovery takes the old store's write lock before moving it: a write committed
 * before that is in the moved file and is salvaged; a write after it sees the store was moved
 * (database.ts) and is made again in the fresh one.
 *
 * Rows are checked as they are copied: a blob that is gzip data must unpack to JSON, and a
 * checkpoint must read back whole, or the row stays behind in the moved-aside file (the integrity
 * check does not read blob contents).
 *
 * "Unclean state": every process that closes the store records the database file's size and
 * modification time; a process that finds them changed (a writer was killed, or something else
 * wrote the file) checks the whole file before writing (`PRAGMA quick_check`).
 * @module
 */
import { DatabaseSync } from '@photostructure/sqlite';
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AppError } from '../../core/errors.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';
import {
  readRecoveryNotice,
  writeRecoveryNotice,
  type RecoveryNotice,
} from '../home/recovery-notice.ts';
import { beginExclusive, beginWrite, quickCheck, tableColumns } from './dialect.ts';

export {
  describeRecovery,
  markRecoveryShown,
  readRecoveryNotice,
  type RecoveryNotice,
} from '../home/recovery-notice.ts';
import { ensureDir } from '../home/home.ts';
import { isReadableCheckpointRow } from '../checkpoints/checkpoint-rows.ts';

type Db = InstanceType<typeof DatabaseSync>;

const CORRUPT =
  /malformed|not a database|SQLITE_CORRUPT|SQLITE_NOTADB|file is encrypted|disk image/i;

export function isCorruptionError(error: unknown): boolean {
  return CORRUPT.test(error instanceof Error ? error.message : String(error));
}

const CLEAN = ['cache', 'store-clean.json'] as const;

type FileStamp = { size: number; mtimeMs: number };

function stamp(path: string): FileStamp | null {
  try {
    const s = statSync(path);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}

/** Records the database file as this process leaves it (called after a clean close). */
export function recordCleanClose(home: string, path: string): void {
  const s = stamp(path);
  if (s === null) return;
  try {
    ensureDir(home, 'cache');
    writeJsonFileAtomic(join(home, ...CLEAN), s);
  } catch {
    // the next open checks the file: slower, never wrong
  }
}

/** True when the file is as the last clean close left it (no check needed). */
export function isAsLeftClean(home: string, path: string): boolean {
  const recorded = readJsonFile(join(home, ...CLEAN)) as FileStamp | null;
  const now = stamp(path);
  return (
    recorded !== null &&
    now !== null &&
    recorded.size === now.size &&
    recorded.mtimeMs === now.mtimeMs
  );
}

/** `PRAGMA quick_check`'s verdict: null when fine, else what it found. */
export function checkIntegrity(db: Db): string | null {
  try {
    const messages = quickCheck(db, 5);
    return messages.length === 1 && messages[0] === 'ok' ? null : messages.join('; ');
  } catch (error) {
    return (error as Error).message;
  }
}

const SKIP_TABLES = /^(?:sqlite_|schema_version$|checkpoint_search)/;

/**
 * True when a column holds gzip data (a checkpoint section, serialize.ts) that does not unpack to
 * JSON: copying it would leave a session whose every checkpoint and resume fails to read it.
 */
export function hasDamagedBlob(row: Record<string, unknown>): boolean {
  for (const value of Object.values(row)) {
    if (
      !(value instanceof Uint8Array) ||
      value.length < 2 ||
      value[0] !== 0x1f ||
      value[1] !== 0x8b
    )
      continue;
    try {
      JSON.parse(gunzipSync(value).toString('utf8'));
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * Rows checked as shim reads them back, beyond their gzip sections: a checkpoint must decode
 * whole (its source text too), or every later checkpoint of its session would meet it again and
 * move the store aside once more.
 */
const READABLE: Record<string, (row: Record<string, unknown>) => boolean> = {
  checkpoints: isReadableCheckpointRow,
};

function isDamaged(table: string, row: Record<string, unknown>): boolean {
  return hasDamagedBlob(row) || (READABLE[table] !== undefined && !READABLE[table](row));
}

type Salvage = { salvaged: Record<string, number>; lost: number; damaged: number };

/** Copies every readable row of `from` into `to` (tables both have, their shared columns). */
function salvage(from: Db, to: Db): Salvage {
  const salvaged: Record<string, number> = {};
  let lost = 0;
  let damaged = 0;
  let tables: string[];
  try {
    tables = (
      from.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
        name: string;
      }>
    )
      .map((t) => t.name)
      .filter((t) => !SKIP_TABLES.test(t));
  } catch {
    return { salvaged, lost: 0, damaged: 0 };
  }
  const targetColumns = (table: string) => tableColumns(to, table);
  for (const table of tables) {
    const columns = targetColumns(table);
    if (columns.length === 0) continue;
    let copied = 0;
    // Row by row in rowid order: a damaged page costs its rows, not the table.
    let after = -Infinity;
    let misses = 0;
    while (misses < 1000) {
      let row: Record<string, unknown> | undefined;
      try {
        row = from
          .prepare(
            `SELECT rowid AS __rowid, * FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT 1`,
          )
          .get(Number.isFinite(after) ? after : -9007199254740991) as
          Record<string, unknown> | undefined;
      } catch {
        lost++;
        misses++;
        after = Number.isFinite(after) ? after + 1 : 0;
        continue;
      }
      if (row === undefined) break;
      after = Number(row.__rowid);
      misses = 0;
      if (isDamaged(table, row)) {
        lost++;
        damaged++;
        continue;
      }
      const names = columns.filter((c) => c in row);
      try {
        to.prepare(
          `INSERT OR IGNORE INTO "${table}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        ).run(...names.map((n) => row[n] as never));
        copied++;
      } catch {
        lost++;
      }
    }
    salvaged[table] = copied;
  }
  return { salvaged, lost, damaged };
}

/**
 * Moves the corrupt database aside, has `createFresh` make a new one, copies what can be read,
 * and records the notice. Returns the notice. The caller holds the recovery lock.
 */
export function recoverCorruptDatabase(
  home: string,
  path: string,
  reason: string,
  createFresh: () => Db,
): RecoveryNotice {
  const at = new Date();
  const movedTo = `${path}.corrupt-${at.toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  moveAside(path, movedTo);
  const fresh = createFresh();
  let result: Salvage = { salvaged: {}, lost: 0, damaged: 0 };
  let old: Db | null = null;
  try {
    old = new DatabaseSync(movedTo, { readOnly: true });
    beginWrite(fresh);
    result = salvage(old, fresh);
    fresh.exec('COMMIT');
  } catch {
    if (fresh.isTransaction) fresh.exec('ROLLBACK');
  } finally {
    old?.close();
  }
  // A notice not yet shown names the earlier moves too.
  const previous = readRecoveryNotice(home);
  const unshown = previous && !(previous.shownOnStderr && previous.shownInHook);
  const notice: RecoveryNotice = {
    at: at.toISOString(),
    movedTo,
    reason: reason.split('\n')[0]!.slice(0, 200),
    ...result,
    ...(unshown ? { earlier: [...(previous.earlier ?? []), previous.movedTo] } : {}),
    shownOnStderr: false,
    shownInHook: false,
  };
  try {
    ensureDir(home, 'cache');
    writeRecoveryNotice(home, notice);
  } catch {
    // the recovery stands; only the notice is lost
  }
  return notice;
}

/**
 * Renames the store (and its journal files) to `movedTo` while holding its write lock, so no
 * write lands in it after the move unnoticed (database.ts checks, inside each write
 * transaction, that the file it writes is still the store).
 */
function moveAside(path: string, movedTo: string): void {
  let holder: Db | null = null;
  try {
    holder = new DatabaseSync(path, { timeout: 10_000 });
    beginWrite(holder);
  } catch {
    // too damaged to lock: moved all the same
  }
  try {
    renameSync(path, movedTo);
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${movedTo}${suffix}`);
    }
  } finally {
    const held = holder;
    if (held)
      closeMovedConnection(() => {
        if (held.isTransaction) held.exec('ROLLBACK');
        held.close();
      }, movedTo);
  }
}

/**
 * Closes a connection whose file was moved to `movedTo`. SQLite's last connection to a file
 * deletes its journal files by the name it was opened with — after a move, the fresh store's. A
 * second connection opened by the new name keeps the first from being the last, and deletes the
 * moved journal files (its own names) when it closes.
 */
export function closeMovedConnection(close: () => void, movedTo: string | null): void {
  let keeper: Db | null = null;
  try {
    if (movedTo) keeper = new DatabaseSync(movedTo, { timeout: 10_000 });
  } catch {
    keeper = null;
  }
  try {
    close();
  } finally {
    keeper?.close();
  }
}

/** Where the store file with this inode was moved aside (`shim.db.corrupt-…`), if it was. */
export function findMovedStore(path: string, ino: number): string | null {
  try {
    for (const name of readdirSync(dirname(path))) {
      if (!name.startsWith(`${basename(path)}.corrupt-`) || /-(?:wal|shm)$/.test(name)) continue;
      const full = join(dirname(path), name);
      if (statSync(full).ino === ino) return full;
    }
  } catch {
    // not found: the caller closes plainly
  }
  return null;
}

const LOCK_FILE = 'store-recovery.lock';

/** SQLite makes a new file by the umask (0644): the lock is made owner-only first, as every file. */
function ownerOnlyFile(path: string): void {
  try {
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      fchmodSync(fd, 0o600);
    } finally {
      closeSync(fd);
    }
  } catch {
    // SQLite's own open below says what is wrong
  }
}
const MARKER_FILE = 'store-recovery.running';
const LOCK_WAIT_MS = 120_000;

/**
 * Runs `work` as the only recovery of the store: an exclusive lock on a small SQLite file (the
 * OS drops it when its holder dies, even by kill -9), and a marker while it runs so that other
 * processes wait before opening the store (waitForRecovery).
 */
export function withRecoveryLock<T>(home: string, work: () => T): T {
  ownerOnlyFile(join(home, LOCK_FILE));
  const lock = new DatabaseSync(join(home, LOCK_FILE), { timeout: LOCK_WAIT_MS });
  try {
    try {
      beginExclusive(lock);
    } catch (error) {
      throw new AppError(
        'STORE_UNAVAILABLE',
        `another shim process has been recovering the store for over ${LOCK_WAIT_MS / 1000} s`,
        `if no shim process is running, delete ${join(home, LOCK_FILE)}`,
        { cause: error },
      );
    }
    const marker = join(home, MARKER_FILE);
    try {
      writeFileSync(marker, String(process.pid), { mode: 0o600 });
    } catch {
      // others then open without waiting; the moved-store check still guards their writes
    }
    try {
      return work();
    } finally {
      try {
        unlinkSync(marker);
      } catch {
        // already gone
      }
    }
  } finally {
    lock.close();
  }
}

/**
 * Waits while a recovery runs (its marker is there). Costs one stat when none does; a marker
 * left by a recovery that was killed is removed once its lock is free.
 */
export function waitForRecovery(home: string): void {
  const marker = join(home, MARKER_FILE);
  if (!existsSync(marker)) return;
  try {
    withRecoveryLock(home, () => undefined);
  } catch {
    // could not wait: open anyway
  }
}
