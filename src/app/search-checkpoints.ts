/**
 * Full-text search over past checkpoints (SQLite FTS5, migration 3): their summaries, decisions,
 * the user's requests, tasks, files and errors. One use case for `shim search` and the MCP
 * `shim_search` tool.
 *
 * Results are an index, not documents: one line per session (its best-matching checkpoint, with
 * how many of the session's checkpoints matched), so a search costs a few hundred tokens and the
 * details are fetched by id. A session's checkpoints repeat each other, hence one hit per session.
 *
 * The query is plain words: every word must match (stemmed: "migrations" finds "migration"),
 * `"quoted phrases"` match as phrases, `word*` matches a prefix. When no checkpoint has every
 * word, the search falls back to any word and says so.
 *
 * The index is filled where checkpoints are saved (CheckpointRepository.save); checkpoints saved
 * before it existed, or whose indexing failed, are indexed here before searching.
 * @module
 */
import { resolve } from 'node:path';
import { AppError } from '../core/errors.ts';
import {
  indexCheckpointForSearch,
  SEARCH_FIELDS,
  type SearchField,
} from '../store/checkpoint-repository.ts';
import { findProjectRoot } from '../capture/project.ts';
import { withWriteTransaction } from '../store/database.ts';
import { matchProject } from '../store/project-match.ts';
import type { Store } from './open-store.ts';

export { SEARCH_FIELDS, type SearchField };

export type SearchScope = 'project' | 'all';

export type SearchRequest = {
  query: string;
  /** `project`: checkpoints of sessions that ran in the project of `cwd` (its git root, else itself). */
  scope: SearchScope;
  cwd: string;
  /** Sessions to return (default 10, at most 50). */
  limit?: number;
  /** Only these columns (default: all). */
  fields?: readonly SearchField[];
};

export type SearchHit = {
  checkpointId: string;
  sessionId: string;
  checkpointNumber: number;
  createdAt: string;
  cwd: string | null;
  /** One line around the best match, the matched words in [brackets]. */
  snippet: string;
  /** Checkpoints of this session that matched. */
  matches: number;
};

export type SearchResult = {
  query: string;
  scope: SearchScope;
  /** The project (its root directory) a project search was limited to. */
  cwd: string;
  /** `all`: every word matched; `any`: none had them all, these have some. */
  matched: 'all' | 'any';
  hits: SearchHit[];
  /** Sessions that matched in total (hits holds the best `limit` of them). */
  sessions: number;
  /** Checkpoints indexed just now because they predated the index. */
  indexedNow: number;
};

export const DEFAULT_SEARCH_LIMIT = 10;
const MAX_SEARCH_LIMIT = 50;
const SNIPPET_TOKENS = 16;
const CATCH_UP_BATCH = 200;

/** Column weights for bm25: what the user asked and decided outranks incidental mentions. */
const WEIGHTS: Record<SearchField, number> = {
  summary: 3,
  decisions: 3,
  requests: 4,
  tasks: 2,
  files: 1.5,
  errors: 1,
};

type Term = { text: string; prefix: boolean };

/** Splits a query into words and "quoted phrases"; `word*` is a prefix. */
export function parseQuery(query: string): Term[] {
  const terms: Term[] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const raw = match[1] ?? match[2] ?? '';
    const prefix = match[1] === undefined && raw.endsWith('*');
    const text = (prefix ? raw.replace(/\*+$/, '') : raw).trim();
    // FTS5 drops punctuation itself; a term of punctuation only would match nothing.
    if (/[\p{L}\p{N}]/u.test(text)) terms.push({ text, prefix });
  }
  return terms;
}

/** The FTS5 MATCH expression: each term a quoted phrase (no operator injection), AND or OR. */
export function toMatchExpression(
  terms: readonly Term[],
  join: 'AND' | 'OR',
  fields?: readonly SearchField[],
): string {
  const body = terms
    .map((t) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`)
    .join(` ${join} `);
  return fields && fields.length > 0 ? `{${fields.join(' ')}} : (${body})` : body;
}

/** Indexes checkpoints the index does not have yet; returns how many. */
export function catchUpSearchIndex(store: Store): number {
  // Deleting a checkpoint deletes its index row (migration 3's trigger), so equal counts mean
  // nothing is missing: two index-only counts instead of an anti-join on every search.
  const counts = store.db
    .prepare(
      'SELECT (SELECT COUNT(*) FROM checkpoints) AS saved, (SELECT COUNT(*) FROM checkpoint_search_ids) AS indexed',
    )
    .get() as { saved: number; indexed: number };
  if (counts.saved === counts.indexed) return 0;
  const missing = store.db
    .prepare(
      `SELECT c.id FROM checkpoints c LEFT JOIN checkpoint_search_ids s ON s.checkpoint_id = c.id
       WHERE s.checkpoint_id IS NULL`,
    )
    .all() as Array<{ id: string }>;
  for (let i = 0; i < missing.length; i += CATCH_UP_BATCH) {
    const batch = missing.slice(i, i + CATCH_UP_BATCH);
    withWriteTransaction(store.db, () => {
      for (const { id } of batch) {
        const checkpoint = store.checkpoints.getById(id);
        if (checkpoint) indexCheckpointForSearch(store.db, checkpoint);
      }
    });
  }
  return missing.length;
}

type HitRow = {
  doc: number;
  checkpoint_id: string;
  session_id: string;
  checkpoint_number: number;
  created_at: string;
  cwd: string | null;
  matches: number;
  sessions: number;
};

function runQuery(
  store: Store,
  match: string,
  request: SearchRequest,
  limit: number,
): { rows: HitRow[]; snippets: Map<number, string> } {
  const project =
    request.scope === 'project' ? matchProject('c.cwd', findProjectRoot(request.cwd)) : null;
  const weights = SEARCH_FIELDS.map((f) => WEIGHTS[f]).join(', ');
  // Best checkpoint per session (rank, then newest), best sessions first.
  const rows = store.db
    .prepare(
      `SELECT doc, checkpoint_id, session_id, checkpoint_number, created_at, cwd, matches,
         COUNT(*) OVER () AS sessions
       FROM (
         SELECT s.doc, c.id AS checkpoint_id, c.session_id, c.checkpoint_number, c.created_at, c.cwd,
           f.score,
           ROW_NUMBER() OVER (PARTITION BY c.session_id ORDER BY f.score, c.created_at DESC) AS nth,
           COUNT(*) OVER (PARTITION BY c.session_id) AS matches
         FROM (SELECT rowid, bm25(checkpoint_search, ${weights}) AS score
               FROM checkpoint_search WHERE checkpoint_search MATCH ?) f
         JOIN checkpoint_search_ids s ON s.doc = f.rowid
         JOIN checkpoints c ON c.id = s.checkpoint_id
         ${project ? `WHERE ${project.sql}` : ''}
       )
       WHERE nth = 1
       ORDER BY score, created_at DESC
       LIMIT ?`,
    )
    .all(match, ...(project?.params ?? []), limit) as HitRow[];
  // Snippets only for what is shown: snippet() over every match would cost more than the search.
  const snippets = new Map<number, string>();
  const snippet = store.db.prepare(
    `SELECT snippet(checkpoint_search, -1, '[', ']', '…', ${SNIPPET_TOKENS}) AS text
     FROM checkpoint_search WHERE checkpoint_search MATCH ? AND rowid = ?`,
  );
  for (const row of rows) {
    const found = snippet.get(match, row.doc) as { text: string } | undefined;
    snippets.set(row.doc, (found?.text ?? '').replace(/\s+/g, ' ').trim());
  }
  return { rows, snippets };
}

export function searchCheckpoints(store: Store, request: SearchRequest): SearchResult {
  const terms = parseQuery(request.query);
  if (terms.length === 0) {
    throw new AppError(
      'USAGE',
      `nothing to search for in "${request.query}"`,
      'give one or more words, e.g. `migration sqlite` or `"prompt is too long"`',
    );
  }
  const limit = Math.min(
    MAX_SEARCH_LIMIT,
    Math.max(1, Math.floor(request.limit ?? DEFAULT_SEARCH_LIMIT)),
  );
  const indexedNow = catchUpSearchIndex(store);
  let matched: SearchResult['matched'] = 'all';
  let found = runQuery(store, toMatchExpression(terms, 'AND', request.fields), request, limit);
  if (found.rows.length === 0 && terms.length > 1) {
    matched = 'any';
    found = runQuery(store, toMatchExpression(terms, 'OR', request.fields), request, limit);
  }
  return {
    query: request.query,
    scope: request.scope,
    cwd: request.scope === 'project' ? findProjectRoot(request.cwd) : resolve(request.cwd),
    matched,
    sessions: found.rows[0]?.sessions ?? 0,
    indexedNow,
    hits: found.rows.map((r) => ({
      checkpointId: r.checkpoint_id,
      sessionId: r.session_id,
      checkpointNumber: r.checkpoint_number,
      createdAt: r.created_at,
      cwd: r.cwd,
      snippet: found.snippets.get(r.doc) ?? '',
      matches: r.matches,
    })),
  };
}
