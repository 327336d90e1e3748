/**
 * What checkpoint search looks at and how a query is read: the indexed text of a checkpoint, one
 * string per column (migration 3), the column weights, and the user's words split into terms.
 * Turning the terms into an engine's query (an FTS5 MATCH expression) is the store dialect's
 * (store/sqlite/dialect.ts).
 * @module
 */
import type { CheckpointDraft } from './checkpoint.ts';

/** The full-text columns of `checkpoint_search` (migration 3), in table order. */
export const SEARCH_FIELDS = [
  'summary',
  'decisions',
  'requests',
  'tasks',
  'files',
  'errors',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

const lines = (items: ReadonlyArray<string | null | undefined>) =>
  items.filter((s): s is string => typeof s === 'string' && s.length > 0).join('\n');

/** The text of a checkpoint that search looks at, one string per column. */
export function toSearchDocument(c: CheckpointDraft): Record<SearchField, string> {
  const { conversationState: conv, taskState: task, fileState: files } = c;
  return {
    summary: lines([
      conv.summary,
      conv.currentContext,
      task.operation,
      task.phase,
      c.source.reason,
    ]),
    decisions: lines(conv.keyDecisions),
    requests: lines(conv.userRequests),
    tasks: lines([...task.items.map((i) => i.content), ...task.nextSteps, ...task.completedSteps]),
    files: lines([
      ...files.activeFiles,
      ...files.modifiedFiles,
      ...files.stagedFiles,
      files.repoRoot,
      files.branch,
    ]),
    errors: lines([
      ...task.blockers,
      ...c.toolState.recentToolCalls.filter((t) => !t.success).map((t) => `${t.tool}: ${t.result}`),
    ]),
  };
}

/** Column weights for bm25: what the user asked and decided outranks incidental mentions. */
export const SEARCH_WEIGHTS: Record<SearchField, number> = {
  summary: 3,
  decisions: 3,
  requests: 4,
  tasks: 2,
  files: 1.5,
  errors: 1,
};

export type SearchTerm = { text: string; prefix: boolean };

/** Splits a query into words and "quoted phrases"; `word*` is a prefix. */
export function parseQuery(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const raw = match[1] ?? match[2] ?? '';
    const prefix = match[1] === undefined && raw.endsWith('*');
    const text = (prefix ? raw.replace(/\*+$/, '') : raw).trim();
    // FTS5 drops punctuation itself; a term of punctuation only would match nothing.
    if (/[\p{L}\p{N}]/u.test(text)) terms.push({ text, prefix });
  }
  return terms;
}
