/**
 * Full-text search over checkpoints (`shim search`, MCP `shim_search`): the best checkpoint per
 * session for the words. store/checkpoints/checkpoint-search.ts implements it.
 * @module
 */
import type { CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import type { SearchField, SearchTerm } from '../../core/checkpoint/search-query.ts';

/** The best checkpoint of one session for the words, and the text around them there. */
export type SearchHit = {
  checkpointId: string;
  sessionId: string;
  checkpointNumber: number;
  createdAt: string;
  cwd: string | null;
  /** The agent whose session it is, as stored. */
  agent: string;
  /** The session's checkpoints that matched. */
  matches: number;
  snippet: string;
};

/** Hits, best session first, and how many sessions matched in all (before the limit). */
export type SearchFound = { hits: SearchHit[]; sessions: number };

/** What to look for: the user's terms, all of them (AND) or any (OR), in these columns or all. */
export type SearchWords = {
  terms: readonly SearchTerm[];
  join: 'AND' | 'OR';
  fields?: readonly SearchField[] | undefined;
};

export interface CheckpointSearch {
  catchUp(getById: (id: string) => CheckpointDraft | null): number;
  query(words: SearchWords, options: { projectRoot: string | null; limit: number }): SearchFound;
}
