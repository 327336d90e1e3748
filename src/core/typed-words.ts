/**
 * The user's own words kept out of shim.log: what a person typed after a command (a search, a
 * reason, a path) or a model passed to a tool is theirs, and an error quoting it is logged with it
 * taken out. The one-line error on the screen still says it whole.
 * @module
 */

/** What stands where a typed word was. */
export const TYPED = '<typed>';

/**
 * `text` with every word of `typed` (and its trimmed self) taken out, the longest first (a word
 * inside another goes with it). Words under three characters stay: taking out a `5` or an `a` would garble the
 * message and hide nobody's words.
 */
export function withoutTyped(text: string, typed: readonly string[]): string {
  return [...new Set(typed.flatMap((word) => [word, word.trim()]))]
    .filter((word) => word.length >= 3)
    .sort((a, b) => b.length - a.length)
    .reduce((out, word) => out.split(word).join(TYPED), text);
}
