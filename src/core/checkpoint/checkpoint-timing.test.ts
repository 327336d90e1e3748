import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  chooseFallbackGap,
  placeCheckpoints,
  scoreTiming,
  type WorkStep,
} from './checkpoint-timing.ts';

const step = (edit: boolean, workChange = false): WorkStep => ({ edit, workChange });
// Two edits, a passing test (the work changes), reading, one more edit.
const steps = [step(true), step(true), step(false, true), step(false), step(false), step(true)];

test('by count every N calls; at work changes with a fallback after K calls without one', () => {
  assert.deepEqual(placeCheckpoints(steps, { kind: 'count', every: 2 }), [1, 3, 5]);
  assert.deepEqual(placeCheckpoints(steps, { kind: 'work-change', fallbackAfter: 3 }), [2, 5]);
  // Nothing changed in files since the test run: no checkpoint at the fallback.
  assert.deepEqual(
    placeCheckpoints([step(true, true), step(false), step(false), step(false)], {
      kind: 'work-change',
      fallbackAfter: 2,
      onlyAfterEdits: true,
    }),
    [0],
  );
});

test('a restore after any call loses the file changes made since the newest checkpoint', () => {
  // A death right after a call comes before the checkpoint it triggers. Every 2: after call 0
  // one edit is unsaved, after call 1 two, after call 5 one (calls 2–4 lose nothing).
  assert.deepEqual(scoreTiming(steps, { kind: 'count', every: 2 }), {
    restores: 6,
    lossy: 3,
    editsLost: 4,
    checkpoints: 3,
  });
  // At the test run (call 2): calls 0, 1, 2 and 5 lose 1, 2, 2 and 1.
  assert.deepEqual(scoreTiming(steps, { kind: 'work-change', fallbackAfter: 3 }), {
    restores: 6,
    lossy: 4,
    editsLost: 6,
    checkpoints: 2,
  });
});

test('the learned gap loses least within the checkpoint budget', () => {
  const score = (lossy: number, checkpoints: number) => ({
    restores: 10,
    lossy,
    editsLost: lossy,
    checkpoints,
  });
  const byGap = new Map([
    [1, score(0, 10)],
    [2, score(2, 5)],
    [3, score(4, 3)],
  ]);
  assert.equal(chooseFallbackGap(byGap, 5), 2);
  assert.equal(chooseFallbackGap(byGap, 3), 3);
  assert.equal(chooseFallbackGap(byGap, 1), 3, 'none fits: the largest gap');
});
