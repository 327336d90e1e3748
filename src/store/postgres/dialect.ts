/**
 * What only PostgreSQL says for the team store, in one place (SQLite's is store/sqlite/dialect.ts):
 * full-text search over a generated tsvector — the text configuration, the column's DDL, the
 * user's words as a tsquery, the match, its rank and its headline. Transactions and the
 * migration's advisory lock are Kysely's and team-database.ts's; the rest of the SQL keeps to what
 * SQLite shares (`ON CONFLICT`, `RETURNING`).
 * @module
 */
import { sql, type RawBuilder } from 'kysely';

/**
 * The text search configuration: 'simple' lowercases and splits, without English stems (code
 * words are not English). Migration 1 built the column with it: another one needs a migration.
 */
export const FULL_TEXT_CONFIG = 'simple';

/** DDL for a tsvector column kept from `source` by the server (generated, stored). */
export function fullTextColumnSql(source: string): string {
  return `TSVECTOR GENERATED ALWAYS AS (to_tsvector('${FULL_TEXT_CONFIG}'::regconfig, ${source})) STORED`;
}

/**
 * The user's words as a tsquery: web-search syntax ("phrases", `or`, `-word`), which takes any
 * text without a syntax error, so nothing typed can break or widen the query.
 */
export function fullTextQuery(words: string): RawBuilder<unknown> {
  return sql`websearch_to_tsquery(${sql.lit(FULL_TEXT_CONFIG)}, ${words})`;
}

/** SQL true where the tsvector column `vector` matches the tsquery `query` (both SQL names). */
export function fullTextMatches(vector: string, query: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(vector)} @@ ${sql.ref(query)}`;
}

/** SQL for a match's relevance (higher is better: order descending). */
export function fullTextRank(vector: string, query: string): RawBuilder<number> {
  return sql<number>`ts_rank(${sql.ref(vector)}, ${sql.ref(query)})`;
}

/** SQL for the text around the best match of `query` in `text`, the matched words in [brackets]. */
export function fullTextSnippet(text: string, query: string, words: number): RawBuilder<string> {
  const options = `MaxFragments=1,MaxWords=${Math.floor(words)},MinWords=4,StartSel=[,StopSel=]`;
  return sql<string>`ts_headline(${sql.lit(FULL_TEXT_CONFIG)}, ${sql.ref(text)}, ${sql.ref(query)}, ${sql.lit(options)})`;
}
