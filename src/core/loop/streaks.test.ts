import assert from 'node:assert/strict';
import { test } from 'node:test';
import { advanceStreaks, type Streaks } from './streaks.ts';

const zero: Streaks = { limitAttempts: 0, transientErrors: 0, consecutiveCrashes: 0 };

test('each streak grows with its own kind of end', () => {
  let s = advanceStreaks(zero, 'usage_limit');
  s = advanceStreaks(s, 'usage_limit');
  assert.deepEqual(s, { limitAttempts: 2, transientErrors: 0, consecutiveCrashes: 0 });
  s = advanceStreaks(advanceStreaks(zero, 'api_error'), 'api_error');
  assert.deepEqual(s, { limitAttempts: 0, transientErrors: 2, consecutiveCrashes: 2 });
});

test('crashes and API errors count together as crashes in a row', () => {
  const s = advanceStreaks(advanceStreaks(zero, 'crashed'), 'api_error');
  assert.equal(s.consecutiveCrashes, 2);
  assert.equal(s.transientErrors, 1);
});

test('any other end resets every streak', () => {
  const busy: Streaks = { limitAttempts: 3, transientErrors: 2, consecutiveCrashes: 4 };
  for (const end of ['finished', 'context_threshold', 'timeout', 'orphaned'] as const)
    assert.deepEqual(advanceStreaks(busy, end), zero, end);
  assert.deepEqual(advanceStreaks(busy, 'crashed'), { ...zero, consecutiveCrashes: 5 });
});
