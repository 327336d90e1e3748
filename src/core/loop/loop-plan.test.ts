import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeLoopPlan, planLoop } from './loop-plan.ts';

const step = (index: number, tokens: number) => ({ index, title: `step ${index}`, tokens });

describe('planLoop', () => {
  // Restart at 117k; a session starts at 17k and reads 10k of shared context: 90k for steps.
  const base = { sharedTokens: 10_000, startTokens: 17_000, restartTokens: 117_000 };

  test('steps fill a session in order; the next that does not fit starts the next session', () => {
    const plan = planLoop({ ...base, steps: [step(1, 40_000), step(2, 40_000), step(3, 30_000)] });
    assert.equal(plan.room, 90_000);
    assert.deepEqual(
      plan.steps.map((s) => [s.index, s.fits, s.session]),
      [
        [1, true, 1],
        [2, true, 1],
        [3, true, 2],
      ],
    );
    assert.deepEqual(plan.restartsAfter, [2]);
    assert.equal(plan.sessions, 2);
  });

  test('a step larger than a session needs shards and carries the count on', () => {
    const plan = planLoop({ ...base, steps: [step(1, 20_000), step(2, 200_000), step(3, 5_000)] });
    const big = plan.steps[1]!;
    assert.equal(big.fits, false);
    assert.equal(big.shards, 3);
    assert.equal(big.session, 2, 'it starts in a fresh session');
    assert.equal(plan.steps[2]!.session, 4, 'the step after it follows in its last shard');
    assert.deepEqual(plan.restartsAfter, [1]);
    assert.match(
      describeLoopPlan(plan),
      /^plan: 3 open steps ≈ 225k tokens in ~4 sessions \(restart at 117k\); 2 fit in one session; step 2 needs 3 shards \(shim shard\); restarts expected after step 1$/,
    );
  });
});
