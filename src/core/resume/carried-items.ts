/**
 * What a restore text carries of a checkpoint: the session's first and newest request, every
 * request, the changed files and the open tasks, each as found / total. Used to compare shim's
 * restore with Claude Code's own compaction summary on the user's real sessions (`shim stats`).
 *
 * An item counts as carried when its opening words (60 characters, whitespace folded) appear in
 * the text; a file by its base name (summaries shorten paths). Requests under 20 characters
 * ("yes", "continue") are not scored: they would be "found" anywhere.
 * @module
 */
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import { isOpenTaskStatus } from '../checkpoint/checkpoint.ts';

export const CARRIED_PARTS = [
  'firstRequest',
  'lastRequest',
  'requests',
  'files',
  'openTasks',
] as const;
export type CarriedPart = (typeof CARRIED_PARTS)[number];
export type CarriedScore = { found: number; total: number; missing: string[] };
export type CarriedScores = Record<CarriedPart, CarriedScore>;

const MIN_REQUEST_CHARS = 20;
const RECENT_FILES = 10;
const fold = (text: string) => text.replace(/\s+/g, ' ').trim();
const keyOf = (text: string) => fold(text).slice(0, 60);

type Item = { label: string; needle: string };
export type CarriedItems = Record<CarriedPart, Item[]>;

/** What a restore should carry, from wherever it is known (a checkpoint, a session's state). */
export type CarriedSource = {
  requests: readonly string[];
  /** Changed files, oldest first: the newest `recentFiles` are scored. */
  files: readonly string[];
  tasks: ReadonlyArray<{ content: string; status: string }>;
};

export function carriedItems(source: CarriedSource, recentFiles = RECENT_FILES): CarriedItems {
  const requests = source.requests
    .map(keyOf)
    .filter((k) => k.length >= MIN_REQUEST_CHARS)
    .map((k) => ({ label: `request: ${k}`, needle: k }));
  const files = source.files
    .slice(-recentFiles)
    .map((f) => ({ label: `file: ${f}`, needle: f.split('/').pop() ?? f }));
  const openTasks = source.tasks
    .filter((t) => isOpenTaskStatus(t.status) && keyOf(t.content) !== '')
    .map((t) => ({ label: `task: ${keyOf(t.content)}`, needle: keyOf(t.content) }));
  return {
    firstRequest: requests.slice(0, 1),
    lastRequest: requests.slice(-1),
    requests,
    files,
    openTasks,
  };
}

export function scoreCarried(checkpoint: Checkpoint, text: string): CarriedScores {
  return scoreCarriedItems(
    text,
    carriedItems({
      requests: checkpoint.conversationState.userRequests,
      files: checkpoint.fileState.modifiedFiles,
      tasks: checkpoint.taskState.items,
    }),
  );
}

/** found / total of each part's items in `text` (whitespace folded). */
export function scoreCarriedItems(text: string, items: CarriedItems): CarriedScores {
  const haystack = fold(text);
  const scores = {} as CarriedScores;
  for (const part of CARRIED_PARTS) {
    const missing = items[part].filter((i) => !haystack.includes(i.needle)).map((i) => i.label);
    scores[part] = {
      found: items[part].length - missing.length,
      total: items[part].length,
      missing,
    };
  }
  return scores;
}

/** found / total over every part but the first and last request (they are in `requests`). */
export function overallShare(scores: CarriedScores): number | null {
  const parts = [scores.requests, scores.files, scores.openTasks];
  const total = parts.reduce((n, p) => n + p.total, 0);
  return total === 0 ? null : parts.reduce((n, p) => n + p.found, 0) / total;
}

/** The items shim's restore carried that the other text dropped. */
export function carriedOnlyBy(ours: CarriedScores, theirs: CarriedScores): string[] {
  const dropped: string[] = [];
  for (const part of ['requests', 'files', 'openTasks'] as const) {
    const oursMissing = new Set(ours[part].missing);
    for (const label of theirs[part].missing) if (!oursMissing.has(label)) dropped.push(label);
  }
  return dropped;
}
