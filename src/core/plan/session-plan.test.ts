import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeReordering,
  describeSessionPlan,
  planSession,
  reorderFirstSession,
} from './session-plan.ts';
import { planLoop } from '../loop/loop-plan.ts';

const step = (index: number, tokens: number) => ({ index, title: `step ${index}`, tokens });
const room = { sharedTokens: 10_000, startTokens: 20_000, restartTokens: 130_000 };

test('the steps that fit in what is left now, the one a compaction would cut, the rest later', () => {
  const plan = planSession({
    steps: [step(1, 20_000), step(2, 30_000), step(3, 60_000), step(4, 15_000), step(5, 40_000)],
    left: 65_000,
    ...room,
  });
  assert.deepEqual(
    plan.now.map((s) => s.index),
    [1, 2],
  );
  assert.deepEqual(plan.cut, { step: step(3, 60_000), left: 15_000 });
  // Step 4 fits in the 15k left; step 5 does not.
  assert.deepEqual(plan.reorder, [
    { take: step(4, 15_000), before: step(3, 60_000), left: 15_000 },
  ]);
  assert.deepEqual(
    plan.later?.steps.map((s) => [s.index, s.session]),
    [
      [3, 1],
      [4, 1],
      [5, 2],
    ],
  );
  const text = describeSessionPlan(plan).join('\n');
  assert.match(text, /now: steps 1, 2 fit in this session/);
  assert.match(text, /step 3 \(~60k\) would be cut here: 15k left/);
  assert.match(text, /reorder: step 4 \(~15k\) fits in the 15k left — take it before step 3/);
});

test('without a running session everything goes to fresh sessions; all fitting cuts nothing', () => {
  const none = planSession({ steps: [step(1, 20_000)], left: null, ...room });
  assert.deepEqual(none.now, []);
  assert.equal(none.cut, null);
  assert.equal(none.later?.sessions, 1);
  const all = planSession({ steps: [step(1, 20_000), step(2, 5_000)], left: 50_000, ...room });
  assert.equal(all.cut, null);
  assert.equal(all.later, null);
  assert.deepEqual(all.reorder, []);
});

test("the loop's first session: a later step that fits before the restart is said at the start", () => {
  // Room 100k per session: steps 1 (70k) then 2 (50k) would restart after 1; 3 (20k) fits in the 30k left.
  const loop = planLoop({
    steps: [step(1, 70_000), step(2, 50_000), step(3, 20_000)],
    sharedTokens: 0,
    startTokens: 20_000,
    restartTokens: 120_000,
  });
  assert.equal(loop.room, 100_000);
  const reorder = reorderFirstSession(loop);
  assert.deepEqual(
    reorder.map((r) => [r.take.index, r.before.index, r.left]),
    [[3, 2, 30_000]],
  );
  assert.equal(
    describeReordering(reorder[0]!, 'before the first restart'),
    'reorder: step 3 (~20k) fits in the 30k before the first restart — take it before step 2 if it does not depend on it',
  );
  const inOrder = planLoop({
    steps: [step(1, 70_000), step(3, 20_000)],
    sharedTokens: 0,
    startTokens: 20_000,
    restartTokens: 120_000,
  });
  assert.deepEqual(reorderFirstSession(inOrder), []);
});
