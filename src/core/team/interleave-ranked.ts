/**
 * One list from two ranked lists whose scores cannot be compared: this machine's full-text hits
 * (SQLite FTS5's bm25) and the team store's (PostgreSQL's ts_rank) measure different things on
 * different corpora. Each hit is placed by its position within its own list, as a fraction of
 * that list's length (the middle of its slot: the first of 2 is at 0.25, the first of 10 at
 * 0.05), so the best of each side leads and a long list does not push a short one to the end;
 * equal places go to the newer hit, then to this machine's.
 * @module
 */

export type Ranked<T> = { item: T; side: 'here' | 'team'; createdAt: string };

/** `here` and `team` each best first; the result keeps each side's own order. */
export function interleaveRanked<L, R>(
  here: readonly { item: L; createdAt: string }[],
  team: readonly { item: R; createdAt: string }[],
): Ranked<L | R>[] {
  const placed = (list: readonly { item: L | R; createdAt: string }[], side: 'here' | 'team') =>
    list.map((hit, index) => ({
      ...hit,
      side,
      place: (index + 0.5) / list.length,
      index,
    }));
  return [...placed(here, 'here'), ...placed(team, 'team')]
    .sort(
      (x, y) =>
        x.place - y.place ||
        Date.parse(y.createdAt) - Date.parse(x.createdAt) ||
        (x.side === y.side ? x.index - y.index : x.side === 'here' ? -1 : 1),
    )
    .map(({ item, side, createdAt }) => ({ item, side, createdAt }));
}
