import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  estimateTaskCost,
  fitTaskCostModel,
  MIN_SPAN_TOKENS,
  MIN_TASK_SPANS,
  taskFeatures,
  type TaskSpan,
} from './task-cost.ts';

/** Tasks where fixing costs 4× what checking does, and a project costs 2× the others. */
function synthetic(n: number, seed = 7): TaskSpan[] {
  let s = seed;
  const random = () => (s = (s * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: n }, (_, i) => {
    const fix = i % 2 === 0;
    const project = i % 3 === 0 ? '/p/big' : '/p/small';
    const noise = Math.exp((random() - 0.5) * 0.4);
    return {
      title: fix ? 'Fix the failing import of settings' : 'Check the settings import',
      growthPerResponse: 1_000 + random() * 2_000,
      tokens: (fix ? 40_000 : 10_000) * (project === '/p/big' ? 2 : 1) * noise,
      project,
    };
  });
}

describe('per-task cost model', () => {
  test('too few spans (small ones do not count): no model, the simple policy stands', () => {
    assert.equal(fitTaskCostModel(synthetic(MIN_TASK_SPANS - 1)), null);
    const tiny = synthetic(MIN_TASK_SPANS * 2).map((s) => ({ ...s, tokens: MIN_SPAN_TOKENS - 1 }));
    assert.equal(fitTaskCostModel(tiny), null);
  });

  test('learns what the kind of work named costs, and the project', () => {
    const model = fitTaskCostModel(synthetic(200))!;
    assert.ok(model !== null);
    const at = { growthPerResponse: 2_000, project: '/p/small' };
    const fix = estimateTaskCost(model, {
      ...at,
      title: 'Fix the failing import of settings',
    }).tokens;
    const check = estimateTaskCost(model, { ...at, title: 'Check the settings import' }).tokens;
    assert.ok(fix / check > 2.5 && fix / check < 6, `fix ${fix} vs check ${check}`);
    const big = estimateTaskCost(model, {
      ...at,
      project: '/p/big',
      title: 'Check the settings import',
    }).tokens;
    assert.ok(big > check * 1.3, `big project ${big} vs ${check}`);
    const unknown = estimateTaskCost(model, {
      growthPerResponse: 2_000,
      title: 'Check the settings import',
    });
    assert.ok(unknown.tokens > 0);
    // The noise is ±20% in logs: the mean is a little above the median, never below.
    assert.ok(model.variance > 0 && model.variance < 0.1, `${model.variance}`);
    assert.ok(unknown.expected >= unknown.tokens && unknown.expected < unknown.tokens * 1.1);
  });

  test('features: words and kinds of work, never the exact text', () => {
    const a = taskFeatures({ title: 'Run the tests', growthPerResponse: 1_000 });
    const b = taskFeatures({ title: 'Run all tests', growthPerResponse: 1_000 });
    assert.deepEqual(a, b, 'two titles of the same shape are the same task to the model');
    assert.equal(taskFeatures({ title: '', growthPerResponse: 0 }).length, a.length);
  });
});
