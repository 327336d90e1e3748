/**
 * What only SQLite says, in one place (its PostgreSQL counterpart is store/postgres/): the
 * connection's PRAGMAs, write transactions that take the lock up front, the file's size, its
 * integrity check, the WAL checkpoint, and JSON read out of a column. Full-text search (FTS5)
 * lives in its migration and checkpoint-search.ts. The repositories otherwise keep to SQL that
 * PostgreSQL shares (`ON CONFLICT`, `RETURNING`), so these are the statements a second local
 * engine would have to answer.
 * @module
 */

/** The part of a connection these statements need (node:sqlite and its drop-in alike). */
export type SqliteConnection = {
  exec(sql: string): void;
  prepare(sql: string): {
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
};

/** A writable connection's settings: durable commits, foreign keys enforced. */
export function prepareConnection(db: SqliteConnection): void {
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
}

/**
 * Write-ahead logging, so readers never wait for the writer. Persistent in the file: only a new
 * database needs the switch (which takes an exclusive lock and can fail busy without waiting).
 */
export function useWriteAheadLog(db: SqliteConnection): void {
  const mode = (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode;
  if (mode !== 'wal') db.exec('PRAGMA journal_mode = WAL');
}

/** Starts a write transaction holding the write lock from its first statement. */
export function beginWrite(db: SqliteConnection): void {
  db.exec('BEGIN IMMEDIATE');
}

/** Starts a transaction no other connection may read or write through (a recovery's move). */
export function beginExclusive(db: SqliteConnection): void {
  db.exec('BEGIN EXCLUSIVE');
}

/** Copies the WAL into the file and empties it (at a clean close). */
export function checkpointWal(db: SqliteConnection): void {
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
}

/** The database file's size in bytes, as its pages count it. */
export function fileBytes(db: SqliteConnection): number {
  const page = db.prepare('PRAGMA page_size').get() as { page_size: number };
  const pages = db.prepare('PRAGMA page_count').get() as { page_count: number };
  return page.page_size * pages.page_count;
}

/** SQLite's quick_check: ['ok'] when the file is sound, else up to `limit` problems. */
export function quickCheck(db: SqliteConnection, limit?: number): string[] {
  const rows = db
    .prepare(
      limit === undefined ? 'PRAGMA quick_check' : `PRAGMA quick_check(${Math.floor(limit)})`,
    )
    .all() as Array<Record<string, unknown>>;
  return rows.map((row) => String(Object.values(row)[0]));
}

/** The columns of `table` (recovery copies what both files have). */
export function tableColumns(db: SqliteConnection, table: string): string[] {
  return (
    db.prepare(`PRAGMA table_info("${table.replaceAll('"', '""')}")`).all() as Array<{
      name: string;
    }>
  ).map((c) => c.name);
}

/** SQL for an integer read out of a JSON column at `path` (`$.contextTokens`); NULL where absent. */
export function jsonInteger(column: string, path: string): string {
  return `CAST(json_extract(${column}, '${path.replaceAll("'", "''")}') AS INTEGER)`;
}

/** SQL true where a column holds well-formed JSON. */
export function isJson(column: string): string {
  return `json_valid(${column})`;
}
