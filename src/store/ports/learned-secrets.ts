/**
 * What the sessions of this home learned are secrets (a memory's lines: hashes, no raw value).
 * store/checkpoints/learned-secrets.ts implements it.
 * @module
 */

/** Lines learned, and the row id of the newest (what `since` asks from). */
export type LearnedLines = { lines: string[]; last: number };

export interface Learned {
  /**
   * Keeps `lines` (a memory's saved lines) that are not kept yet, and drops the oldest beyond
   * {@link LEARNED_KEPT}; returns how many were new.
   */
  add(sessionId: string, lines: readonly string[], at: string): number;
  /** The row id of the newest line (0 when none): what `since` asks from. */
  last(): number;
  /** Every line kept. */
  all(): LearnedLines;
  /** The lines kept after row `last` (an earlier answer's `last`). */
  since(last: number): LearnedLines;
}
