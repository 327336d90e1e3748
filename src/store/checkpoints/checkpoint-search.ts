/**
 * The full-text index of checkpoints (migration 3): filled as checkpoints are saved, caught up
 * for those saved before it existed, and queried for the best checkpoint per session. What is
 * FTS5's own (MATCH, bm25, snippet) comes from the SQLite dialect (sqlite/dialect.ts).
 * @module
 */
import type { CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import {
  SEARCH_FIELDS,
  SEARCH_WEIGHTS,
  toSearchDocument,
} from '../../core/checkpoint/search-query.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import { matchProject } from '../sqlite/project-match.ts';
import {
  fullTextMatch,
  fullTextMatches,
  fullTextRank,
  fullTextSnippet,
} from '../sqlite/dialect.ts';
import type { CheckpointSearch, SearchFound, SearchWords } from '../ports/search.ts';

const INDEX = 'checkpoint_search';

const SNIPPET_TOKENS = 16;
const CATCH_UP_BATCH = 200;

/**
 * Adds a stored checkpoint to the full-text index; does nothing when it is there already.
 * Runs inside the caller's write transaction.
 */
export function indexCheckpointForSearch(db: Database, checkpoint: CheckpointDraft): void {
  const added = db
    .prepare('INSERT OR IGNORE INTO checkpoint_search_ids (checkpoint_id) VALUES (?)')
    .run(checkpoint.id);
  if (Number(added.changes) === 0) return;
  const doc = toSearchDocument(checkpoint);
  db.prepare(
    `INSERT INTO ${INDEX} (rowid, ${SEARCH_FIELDS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(Number(added.lastInsertRowid), ...SEARCH_FIELDS.map((f) => doc[f]));
}

/** Indexes checkpoints the index does not have yet; returns how many. */
export function catchUpSearchIndex(
  db: Database,
  getById: (id: string) => CheckpointDraft | null,
): number {
  // Deleting a checkpoint deletes its index row (migration 3's trigger), so equal counts mean
  // nothing is missing: two index-only counts instead of an anti-join on every search.
  const counts = db
    .prepare(
      'SELECT (SELECT COUNT(*) FROM checkpoints) AS saved, (SELECT COUNT(*) FROM checkpoint_search_ids) AS indexed',
    )
    .get() as { saved: number; indexed: number };
  if (counts.saved === counts.indexed) return 0;
  const missing = db
    .prepare(
      `SELECT c.id FROM checkpoints c LEFT JOIN checkpoint_search_ids s ON s.checkpoint_id = c.id
       WHERE s.checkpoint_id IS NULL`,
    )
    .all() as Array<{ id: string }>;
  for (let i = 0; i < missing.length; i += CATCH_UP_BATCH) {
    const batch = missing.slice(i, i + CATCH_UP_BATCH);
    withWriteTransaction(db, () => {
      for (const { id } of batch) {
        const checkpoint = getById(id);
        // A checkpoint whose chain is broken reads as an older one: that one has its own entry.
        if (checkpoint?.id === id) indexCheckpointForSearch(db, checkpoint);
      }
    });
  }
  return missing.length;
}

/** A hit as the query's row: `doc` is its search index entry, `sessions` the sessions matched. */
type HitRow = {
  doc: number;
  checkpoint_id: string;
  session_id: string;
  checkpoint_number: number;
  created_at: string;
  cwd: string | null;
  agent: string;
  matches: number;
  sessions: number;
};

/**
 * The best checkpoint per session (rank, then newest) for the words, best sessions first;
 * `projectRoot` limits it to checkpoints taken inside that project.
 */
export function querySearchIndex(
  db: Database,
  words: SearchWords,
  options: { projectRoot: string | null; limit: number },
): SearchFound {
  const { limit } = options;
  const project = options.projectRoot === null ? null : matchProject('c.cwd', options.projectRoot);
  const match = fullTextMatch(words.terms, words.join, words.fields);
  const rank = fullTextRank(
    INDEX,
    SEARCH_FIELDS.map((f) => SEARCH_WEIGHTS[f]),
  );
  // Best checkpoint per session (rank, then newest), best sessions first.
  const rows = db
    .prepare(
      `SELECT doc, checkpoint_id, session_id, checkpoint_number, created_at, cwd, agent, matches,
         COUNT(*) OVER () AS sessions
       FROM (
         SELECT s.doc, c.id AS checkpoint_id, c.session_id, c.checkpoint_number, c.created_at, c.cwd, c.agent,
           f.score,
           ROW_NUMBER() OVER (PARTITION BY c.session_id ORDER BY f.score, c.created_at DESC) AS nth,
           COUNT(*) OVER (PARTITION BY c.session_id) AS matches
         FROM (SELECT rowid, ${rank} AS score FROM ${INDEX} WHERE ${fullTextMatches(INDEX)}) f
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
  const snippet = db.prepare(
    `SELECT ${fullTextSnippet(INDEX, SNIPPET_TOKENS)} AS text
     FROM ${INDEX} WHERE ${fullTextMatches(INDEX)} AND rowid = ?`,
  );
  const hits = rows.map((row) => {
    const found = snippet.get(match, row.doc) as { text: string } | undefined;
    return {
      checkpointId: row.checkpoint_id,
      sessionId: row.session_id,
      checkpointNumber: row.checkpoint_number,
      createdAt: row.created_at,
      cwd: row.cwd,
      agent: row.agent,
      matches: row.matches,
      snippet: (found?.text ?? '').replace(/\s+/g, ' ').trim(),
    };
  });
  return { hits, sessions: rows[0]?.sessions ?? 0 };
}

/** The search index as a repository over one open database. */
export class CheckpointSearchIndex implements CheckpointSearch {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  catchUp(getById: (id: string) => CheckpointDraft | null): number {
    return catchUpSearchIndex(this.#db, getById);
  }

  query(words: SearchWords, options: { projectRoot: string | null; limit: number }): SearchFound {
    return querySearchIndex(this.#db, words, options);
  }
}
