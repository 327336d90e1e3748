/**
 * A corrupt store is never written into. When SQLite says the database is malformed (or not a
 * database at all), or an integrity check after an unclean state fails, the file is moved aside
 * as `shim.db.corrupt-<time>` (with its journal files), a fresh store is created, and every row
 * still readable from the old one is copied over. A notice records it, so the CLI, the hooks and
 * `shim doctor` can each say so once.
 *
 * "Unclean state": every process that closes the store records the database file's size and
 * modification time; a process that finds them changed (a writer was killed, or something else
 * wrote the file) checks the whole file before writing (`PRAGMA quick_check`).
 * @module
 */
import { DatabaseSync } from '@photostructure/sqlite';
import { existsSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile, writeJsonFileAtomic } from './json-file.ts';
import { writeRecoveryNotice, type RecoveryNotice } from './recovery-notice.ts';

export {
  describeRecovery,
  markRecoveryShown,
  readRecoveryNotice,
  type RecoveryNotice,
} from './recovery-notice.ts';
import { ensureDir } from './home.ts';

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
    const rows = db.prepare('PRAGMA quick_check(5)').all() as Array<Record<string, unknown>>;
    const messages = rows.map((r) => String(Object.values(r)[0]));
    return messages.length === 1 && messages[0] === 'ok' ? null : messages.join('; ');
  } catch (error) {
    return (error as Error).message;
  }
}

const SKIP_TABLES = /^(?:sqlite_|schema_version$|checkpoint_search)/;

/** Copies every readable row of `from` into `to` (tables both have, their shared columns). */
function salvage(from: Db, to: Db): { salvaged: Record<string, number>; lost: number } {
  const salvaged: Record<string, number> = {};
  let lost = 0;
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
    return { salvaged, lost: 0 };
  }
  const targetColumns = (table: string) =>
    (to.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
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
  return { salvaged, lost };
}

/**
 * Moves the corrupt database aside, has `createFresh` make a new one, copies what can be read,
 * and records the notice. Returns the notice.
 */
export function recoverCorruptDatabase(
  home: string,
  path: string,
  reason: string,
  createFresh: () => Db,
): RecoveryNotice {
  const at = new Date();
  const movedTo = `${path}.corrupt-${at.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(path, movedTo);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${movedTo}${suffix}`);
  }
  const fresh = createFresh();
  let result: { salvaged: Record<string, number>; lost: number } = { salvaged: {}, lost: 0 };
  let old: Db | null = null;
  try {
    old = new DatabaseSync(movedTo, { readOnly: true });
    fresh.exec('BEGIN IMMEDIATE');
    result = salvage(old, fresh);
    fresh.exec('COMMIT');
  } catch {
    if (fresh.isTransaction) fresh.exec('ROLLBACK');
  } finally {
    old?.close();
  }
  const notice: RecoveryNotice = {
    at: at.toISOString(),
    movedTo,
    reason: reason.split('\n')[0]!.slice(0, 200),
    ...result,
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
