/**
 * Full-text search over past checkpoints (the store's full-text index, migration 3): their summaries, decisions,
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
 * The index (store/checkpoints/checkpoint-search.ts) is filled where checkpoints are saved; checkpoints saved
 * before it existed, or whose indexing failed, are indexed before searching.
 * @module
 */
import { resolve } from 'node:path';
import { AppError } from '../../core/errors.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { parseQuery, SEARCH_FIELDS, type SearchField } from '../../core/checkpoint/search-query.ts';
import { toAgentId, type AgentId } from '../../core/agent-id.ts';
import type { Store } from '../open-store.ts';

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
  /** The agent whose session it was. */
  agent: AgentId;
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
  const indexedNow = store.search.catchUp((id) => store.checkpoints.getById(id));
  const where = {
    projectRoot: request.scope === 'project' ? findProjectRoot(request.cwd) : null,
    limit,
  };
  let matched: SearchResult['matched'] = 'all';
  const fields = request.fields;
  let found = store.search.query({ terms, join: 'AND', fields }, where);
  if (found.hits.length === 0 && terms.length > 1) {
    matched = 'any';
    found = store.search.query({ terms, join: 'OR', fields }, where);
  }
  return {
    query: request.query,
    scope: request.scope,
    cwd: request.scope === 'project' ? findProjectRoot(request.cwd) : resolve(request.cwd),
    matched,
    sessions: found.sessions,
    indexedNow,
    hits: found.hits.map((h) => ({
      checkpointId: h.checkpointId,
      sessionId: h.sessionId,
      checkpointNumber: h.checkpointNumber,
      createdAt: h.createdAt,
      cwd: h.cwd,
      agent: toAgentId(h.agent),
      snippet: h.snippet,
      matches: h.matches,
    })),
  };
}
