import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planVerdict, textAsPlan } from './plan-estimate.ts';

test('the verdict answers for the range: fits only when its upper end fits', () => {
  const base = { steps: 5, openSteps: 5, tokens: 60_000, budget: 88_000 };
  assert.equal(planVerdict({ ...base, high: 254_000, remaining: 100_000 }), 'tight');
  assert.equal(planVerdict({ ...base, high: 90_000, remaining: 100_000 }), 'fits');
  assert.equal(planVerdict({ ...base, high: 254_000, remaining: 50_000 }), 'fresh-session');
  assert.equal(planVerdict({ ...base, tokens: 95_000, high: 254_000, remaining: null }), 'shard');
  assert.equal(planVerdict({ ...base, openSteps: 0, high: 0, remaining: 1 }), 'done');
  assert.equal(planVerdict({ ...base, steps: 0, openSteps: 0, high: 0, remaining: 1 }), 'empty');
});

test('words typed as a request become its steps; a list stays a list', () => {
  assert.deepEqual(
    textAsPlan('add a --json flag to status, then update the docs').steps.map((s) => s.title),
    ['add a --json flag to status', 'update the docs'],
  );
  assert.deepEqual(
    textAsPlan('- [ ] one\n- [x] two\n').steps.map((s) => [s.title, s.done]),
    [
      ['one', false],
      ['two', true],
    ],
  );
});
