/**
 * The room a piece of work has: the context left before the session's next compaction, and what a
 * fresh session has for work (its threshold less what it carries before any: system prompt,
 * tools — the session's own first response shows it). Pure.
 * @module
 */

/** What a fresh session carries before any work when nothing shows more. */
export const FRESH_SESSION_BASE = 20_000;

export type ContextRoom = { remaining: number; fresh: number };

export function getContextRoom(
  at: { compactThreshold: number; contextTokens: number },
  firstResponseContext: number | null | undefined,
): ContextRoom {
  return {
    remaining: Math.max(0, at.compactThreshold - at.contextTokens),
    fresh: Math.max(0, at.compactThreshold - (firstResponseContext ?? FRESH_SESSION_BASE)),
  };
}
