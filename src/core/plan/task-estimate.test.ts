import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  estimateTaskTokens,
  fitTaskModel,
  medianPerTaskBaseline,
  MIN_TRAINING_POINTS,
  PRIOR_MODEL,
  type TaskPoint,
} from './task-estimate.ts';

/** Points where finishing costs 4,000 × open tasks × (growth / 1,000)^0.5, times noise. */
function synthetic(n: number, seed = 5): TaskPoint[] {
  let s = seed;
  const random = () => (s = (s * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: n }, () => {
    const openTasks = 1 + Math.floor(random() * 8);
    const growthPerResponse = 300 + random() * 5_000;
    const noise = Math.exp((random() - 0.5) * 1.2);
    return {
      openTasks,
      growthPerResponse,
      actual: 4_000 * openTasks * Math.sqrt(growthPerResponse / 1_000) * noise,
    };
  });
}

describe('task estimates', () => {
  test('too little history: the built-in prior, 7.2k a task', () => {
    assert.equal(fitTaskModel(synthetic(MIN_TRAINING_POINTS - 1)), PRIOR_MODEL);
    assert.deepEqual(estimateTaskTokens(PRIOR_MODEL, { openTasks: 3, growthPerResponse: 2_000 }), {
      tokens: 21_600,
      low: 7_800,
      high: 63_300,
    });
  });

  test('learns how cost grows with the open tasks and the pace, and its 80% range holds', () => {
    const model = fitTaskModel(synthetic(400));
    assert.ok(Math.abs(model.weights[1] - 1) < 0.1, `open tasks: ${model.weights[1]}`);
    assert.ok(Math.abs(model.weights[2] - 0.5) < 0.1, `growth: ${model.weights[2]}`);
    const fresh = synthetic(400, 77);
    const inside = fresh.filter((p) => {
      const e = estimateTaskTokens(model, p);
      return p.actual! >= e.low && p.actual! <= e.high;
    }).length;
    assert.ok(inside / fresh.length > 0.7 && inside / fresh.length < 0.9, `${inside}/400`);
  });

  test("a project's sessions that cost more move its estimates, the more points the further", () => {
    const costly = (n: number, project: string) =>
      synthetic(n, 11).map((p) => ({ ...p, actual: p.actual! * 3, project }));
    const model = fitTaskModel([
      ...synthetic(200).map((p) => ({ ...p, project: '/home/ana/site' })),
      ...costly(60, '/home/ana/compiler'),
      ...costly(3, '/home/ana/tiny'),
    ]);
    const at = (project?: string) =>
      estimateTaskTokens(model, {
        openTasks: 3,
        growthPerResponse: 1_000,
        ...(project === undefined ? {} : { project }),
      }).tokens;
    const ratio = at('/home/ana/compiler') / at('/home/ana/site');
    assert.ok(ratio > 2 && ratio < 3.2, `compiler / site: ${ratio}`);
    assert.ok(at('/home/ana/tiny') > at() && at('/home/ana/tiny') < at('/home/ana/compiler'));
    assert.equal(at('/home/ana/unknown'), at());
    assert.equal(at('constructor'), at(), 'a project name is only ever a key');
  });

  test('points without an actual (tasks never finished) teach nothing', () => {
    const open = synthetic(30).map(({ actual: _unknown, ...p }) => p);
    assert.equal(fitTaskModel(open), PRIOR_MODEL);
  });

  test('the baseline: the median cost per open task, times the open tasks', () => {
    const baseline = medianPerTaskBaseline([
      { openTasks: 2, growthPerResponse: 1, actual: 10_000 },
      { openTasks: 1, growthPerResponse: 1, actual: 3_000 },
      { openTasks: 4, growthPerResponse: 1, actual: 40_000 },
    ]);
    assert.equal(baseline({ openTasks: 3, growthPerResponse: 1 }), 15_000);
  });
});
