/**
 * What only SQLite says, in one place (its PostgreSQL counterpart is store/postgres/dialect.ts):
 * the connection's PRAGMAs, write transactions that take the lock up front, the file's size, its
 * integrity check, the WAL checkpoint, JSON read out of a column, and full-text search (FTS5: the
 * virtual table and its tokenizer, MATCH expressions, bm25 ranking, snippets). The repositories
 * otherwise keep to SQL that PostgreSQL shares (`ON CONFLICT`, `RETURNING`), so these are the
 * statements a second local engine would have to answer.
 * @module
 */
import type { SearchTerm } from '../../core/checkpoint/search-query.ts';

/** The part of a connection these statements need (node:sqlite and its drop-in alike). */
export type SqliteConnection = {
  exec(sql: string): void;
  prepare(sql: string): {
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
};

/**
 * A writable connection's settings: durable commits, foreign keys enforced, and what a write
 * frees overwritten with zeros (`secure_delete`): text replaced later — a row redacted again once
 * its session learned a secret, the search index's merged segments — leaves no copy in free pages.
 */
export function prepareConnection(db: SqliteConnection): void {
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA secure_delete = ON');
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

/** Merges an FTS5 index's segments into one: entries of replaced rows are dropped for good. */
export function mergeFullTextIndex(db: SqliteConnection, table: string): void {
  db.exec(`INSERT INTO ${table}(${table}) VALUES ('optimize')`);
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

/**
 * The full-text tokenizer: unicode61 folds case and diacritics, porter stems English words (a
 * search for "migrations" finds "migration"). Migration 3 built the index with it: another one
 * needs a migration that rebuilds the index.
 */
export const FULL_TEXT_TOKENIZER = 'porter unicode61';

/** DDL for an FTS5 table over `columns` (its rowid is the caller's: a stable document number). */
export function fullTextTableSql(table: string, columns: readonly string[]): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(
  ${columns.join(', ')},
  tokenize = '${FULL_TEXT_TOKENIZER}'
);`;
}

/**
 * The MATCH expression for the user's terms: each term a quoted phrase (no FTS5 operator can be
 * injected), `prefix*` kept, joined by AND or OR, limited to `columns` when given.
 */
export function fullTextMatch(
  terms: readonly SearchTerm[],
  join: 'AND' | 'OR',
  columns?: readonly string[],
): string {
  const body = terms
    .map((t) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`)
    .join(` ${join} `);
  return columns && columns.length > 0 ? `{${columns.join(' ')}} : (${body})` : body;
}

/** SQL true where a row of `table` matches the MATCH expression bound as the next parameter. */
export function fullTextMatches(table: string): string {
  return `${table} MATCH ?`;
}

/**
 * SQL for a matching row's relevance: bm25 with one weight per column, in table order. Lower is
 * better (bm25 is negated in FTS5): order ascending.
 */
export function fullTextRank(table: string, weights: readonly number[]): string {
  return `bm25(${table}, ${weights.join(', ')})`;
}

/** SQL for the text around a matching row's best match, the matched words in [brackets]. */
export function fullTextSnippet(table: string, tokens: number): string {
  return `snippet(${table}, -1, '[', ']', '…', ${Math.floor(tokens)})`;
}
