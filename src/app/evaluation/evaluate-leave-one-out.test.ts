// test-speed: slow (leave-one-out over every real session fixture)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AUTO_COMPACT_FIXTURES, fixturePath } from '../../../test/helpers/fixtures.ts';
import { evaluateLeaveOneOut } from './evaluate-leave-one-out.ts';
import { logOf } from '../../../test/helpers/agents.ts';

describe('evaluateLeaveOneOut', () => {
  test('on real sessions of two eras the resolved threshold is where compactions happened', async () => {
    const paths = AUTO_COMPACT_FIXTURES.map((f) => logOf(fixturePath(f)));
    const report = await evaluateLeaveOneOut(paths);
    assert.equal(report.sessions, paths.length);
    assert.equal(report.autoCompactions, 6);
    assert.deepEqual(report.thresholdConsistency, { consistent: 6, total: 6, share: 1 });
    assert.equal(report.l2Lead.warnedShare, 1);
    assert.ok(report.forecast.withForecast > 0);
    assert.ok(report.forecast.intervalCoverage !== null);
  });

  test('one constant threshold misses the older era (2.1.5 compacted near 155k)', async () => {
    const paths = AUTO_COMPACT_FIXTURES.map((f) => logOf(fixturePath(f)));
    const report = await evaluateLeaveOneOut(paths, { fixedThreshold: 167_000 });
    assert.ok(report.thresholdConsistency.share! < 1);
  });
});
