/**
 * Full-text search over checkpoints (`shim search`, MCP `shim_search`): the best checkpoint per
 * session for the words. store/checkpoints/checkpoint-search.ts implements it.
 * @module
 */
import type { CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import type { SearchField, SearchTerm } from '../../core/checkpoint/search-query.ts';

export type SearchHitRow = {
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

/** What to look for: the user's terms, all of them (AND) or any (OR), in these columns or all. */
export type SearchWords = {
  terms: readonly SearchTerm[];
  join: 'AND' | 'OR';
  fields?: readonly SearchField[] | undefined;
};

export interface CheckpointSearch {
  catchUp(getById: (id: string) => CheckpointDraft | null): number;
  query(
    words: SearchWords,
    options: { projectRoot: string | null; limit: number },
  ): { rows: SearchHitRow[]; snippets: Map<number, string> };
}
