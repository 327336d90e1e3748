import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interleaveRanked } from './interleave-ranked.ts';

const at = (minutesAgo: number) =>
  new Date(Date.UTC(2026, 10, 29, 4) - minutesAgo * 60_000).toISOString();
const hits = (prefix: string, ages: number[]) =>
  ages.map((age, i) => ({ item: `${prefix}${i + 1}`, createdAt: at(age) }));
const order = (result: { item: unknown }[]) => result.map((r) => r.item);

test("each side's best leads, whatever the two lists' lengths", () => {
  // 2 here, 5 in the team store: the first of each comes before either side's second.
  const result = interleaveRanked(hits('h', [50, 40]), hits('t', [10, 20, 30, 35, 45]));
  assert.deepEqual(order(result).slice(0, 2).sort(), ['h1', 't1']);
  assert.deepEqual(order(result), ['t1', 'h1', 't2', 't3', 't4', 'h2', 't5']);
});

test('each side keeps its own order, and neither is appended after the other', () => {
  const result = interleaveRanked(hits('h', [1, 2, 3]), hits('t', [4, 5, 6]));
  const here = order(result).filter((x) => String(x).startsWith('h'));
  const team = order(result).filter((x) => String(x).startsWith('t'));
  assert.deepEqual(here, ['h1', 'h2', 'h3']);
  assert.deepEqual(team, ['t1', 't2', 't3']);
  assert.deepEqual(order(result), ['h1', 't1', 'h2', 't2', 'h3', 't3']);
});

test('an equal place goes to the newer hit, then to this machine', () => {
  const newerTeam = interleaveRanked(hits('h', [30]), hits('t', [5]));
  assert.deepEqual(order(newerTeam), ['t1', 'h1']);
  const same = interleaveRanked(hits('h', [5]), hits('t', [5]));
  assert.deepEqual(order(same), ['h1', 't1']);
  assert.deepEqual(
    same.map((r) => r.side),
    ['here', 'team'],
  );
});

test('one side empty: the other as it came', () => {
  assert.deepEqual(order(interleaveRanked(hits('h', [3, 1, 2]), [])), ['h1', 'h2', 'h3']);
  assert.deepEqual(order(interleaveRanked([], hits('t', [3, 1]))), ['t1', 't2']);
});
