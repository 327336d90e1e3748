/**
 * Markdown helpers the sections share: code spans and fences that survive any content, one-line
 * forms, bounded lists.
 * @module
 */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A fenced block that `text` cannot close, whatever backticks it contains. */
export function fence(text: string, info = ''): string {
  const ticks = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${ticks}${info}\n${text.replace(/\n+$/, '')}\n${ticks}`;
}

/** An inline code span holding `text` on one line, whatever backticks it contains. */
export function code(text: string): string {
  const flat = oneLine(text);
  const ticks = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Collapses line breaks (and the spaces around them) to single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

export function bullets(items: readonly string[]): string {
  return items.map((i) => `- ${i}`).join('\n');
}

/** The newest `max` of `items` (oldest first), with a note of how many older ones were left out. */
export function newest(items: readonly string[], max: number, what: string): string[] {
  if (items.length <= max) return [...items];
  const left = items.length - max;
  return [`(${left} earlier ${what} not shown)`, ...items.slice(-max)];
}

/** The first `max` of `items`, with a note of how many more there are. */
export function first<T>(items: readonly T[], max: number): Array<T | string> {
  if (items.length <= max) return [...items];
  return [...items.slice(0, max), `… and ${items.length - max} more`];
}

export function shortSha(sha: string | null): string | null {
  return sha === null ? null : sha.slice(0, 12);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function uniq(values: readonly string[]): string[] {
  return [...new Set(values)];
}
