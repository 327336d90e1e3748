import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkContextUsage,
  DEFAULT_THRESHOLD_PERCENT,
  renderContextBar,
  restartPercent,
} from './context-monitor.ts';

const SAFE = { percent: 0, exhausted: false, warning: false };

describe('checkContextUsage', () => {
  test('the default restart threshold is 70%', () => {
    assert.equal(DEFAULT_THRESHOLD_PERCENT, 70);
  });

  test('exhausted at exactly 70% of the threshold (the specified default)', () => {
    assert.deepEqual(checkContextUsage(140_000, 200_000, 70), {
      percent: 70,
      exhausted: true,
      warning: true,
    });
  });

  test('safe just under 70%, but warning from 60% on', () => {
    assert.deepEqual(checkContextUsage(138_000, 200_000, 70), {
      percent: 69,
      exhausted: false,
      warning: true,
    });
    assert.equal(checkContextUsage(120_000, 200_000, 70).warning, true);
    assert.equal(checkContextUsage(119_800, 200_000, 70).warning, false);
  });

  test('the percent has one decimal and the flags follow the shown value', () => {
    assert.equal(checkContextUsage(62_345, 200_000, 70).percent, 31.2);
    // 69.96% shows as 70% and restarts: what is shown and what is done agree.
    assert.deepEqual(checkContextUsage(139_920, 200_000, 70), {
      percent: 70,
      exhausted: true,
      warning: true,
    });
  });

  test('a fresh loop with no tokens is safe (no false positive)', () => {
    assert.deepEqual(checkContextUsage(0, 200_000, 70), SAFE);
  });

  test('past 100% stays exhausted', () => {
    assert.deepEqual(checkContextUsage(300_000, 200_000, 70), {
      percent: 150,
      exhausted: true,
      warning: true,
    });
  });

  test('a zero, negative or broken threshold never divides by zero and reads as safe', () => {
    for (const threshold of [0, -1, Number.NaN, Infinity, '200000', null, undefined, {}]) {
      assert.deepEqual(checkContextUsage(150_000, threshold, 70), SAFE, String(threshold));
    }
  });

  test('broken token counts read as safe', () => {
    for (const tokens of [-1, Number.NaN, Infinity, -Infinity, '150000', null, undefined, []]) {
      assert.deepEqual(checkContextUsage(tokens, 200_000, 70), SAFE, String(tokens));
    }
  });

  test('a threshold percent outside (0, 200] reads as safe', () => {
    for (const percent of [0, -5, 200.1, 1000, Number.NaN, Infinity, '70', null]) {
      assert.deepEqual(checkContextUsage(150_000, 200_000, percent), SAFE, String(percent));
    }
    assert.equal(checkContextUsage(500_000, 200_000, 200).exhausted, true);
    assert.equal(checkContextUsage(1_000, 200_000, 0.5).exhausted, true);
  });

  test('a custom warning margin moves the warning; a broken one falls back to 10', () => {
    assert.equal(checkContextUsage(100_000, 200_000, 70, 20).warning, true);
    assert.equal(checkContextUsage(100_000, 200_000, 70, 5).warning, false);
    assert.equal(checkContextUsage(130_000, 200_000, 70, 0).warning, false);
    assert.equal(checkContextUsage(120_000, 200_000, 70, Number.NaN).warning, true);
    assert.equal(checkContextUsage(118_000, 200_000, 70, -3).warning, false);
  });

  test('an overflowing quotient is safe, not Infinity', () => {
    assert.deepEqual(checkContextUsage(Number.MAX_VALUE, Number.MIN_VALUE, 70), SAFE);
  });
});

describe('renderContextBar', () => {
  test('draws 20 cells and the rounded percent', () => {
    assert.equal(renderContextBar(31), '▓▓▓▓▓▓░░░░░░░░░░░░░░ 31%');
    assert.equal(renderContextBar(0), '░░░░░░░░░░░░░░░░░░░░ 0%');
    assert.equal(renderContextBar(100), '▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓ 100%');
    assert.equal(renderContextBar(72.6), '▓▓▓▓▓▓▓▓▓▓▓▓▓▓░░░░░░ 73%');
  });

  test('the bar is full only at 100%', () => {
    assert.equal(renderContextBar(99), '▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓░ 99%');
  });

  test('clamps the bar to 0–100 while the label tells the truth', () => {
    assert.equal(renderContextBar(150), '▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓ 150%');
    assert.equal(renderContextBar(-20), '░░░░░░░░░░░░░░░░░░░░ 0%');
  });

  test('a broken percent reads as 0', () => {
    assert.equal(renderContextBar(Number.NaN), '░░░░░░░░░░░░░░░░░░░░ 0%');
    assert.equal(renderContextBar(Infinity), '░░░░░░░░░░░░░░░░░░░░ 0%');
    assert.equal(renderContextBar('50' as unknown as number), '░░░░░░░░░░░░░░░░░░░░ 0%');
  });

  test('honours a custom width, and survives broken ones', () => {
    assert.equal(renderContextBar(50, 10), '▓▓▓▓▓░░░░░ 50%');
    assert.equal(renderContextBar(50, 0), '50%');
    assert.equal(renderContextBar(50, 4.9), '▓▓░░ 50%');
    assert.equal(renderContextBar(50, -1), renderContextBar(50));
    assert.equal(renderContextBar(50, Number.NaN), renderContextBar(50));
    assert.equal(renderContextBar(50, 1e9).length, 200 + ' 50%'.length);
  });
});

describe('restartPercent (the seed names CONTEXT_WINDOW_TOKENS / CONTEXT_EXHAUSTION_THRESHOLD)', () => {
  const threshold = { compactThreshold: 167_000, windowTokens: 200_000 };

  test("without the seed's rule it is shim's own percent of the threshold", () => {
    assert.equal(restartPercent({ thresholdPercent: 60, window: null }, threshold), 60);
  });

  test("70% of the model's 200k window is 140k tokens: 83.8% of a 167k threshold", () => {
    const rule = { thresholdPercent: 70, window: { percent: 70, windowTokens: null } };
    assert.equal(restartPercent(rule, threshold), 83.8);
    assert.equal(
      checkContextUsage(139_800, 167_000, restartPercent(rule, threshold)).exhausted,
      false,
    );
    assert.equal(
      checkContextUsage(140_000, 167_000, restartPercent(rule, threshold)).exhausted,
      true,
    );
  });

  test('a window of its own replaces the resolved one; the result is clamped to 200%', () => {
    const rule = (windowTokens: number) => ({
      thresholdPercent: 70,
      window: { percent: 50, windowTokens },
    });
    assert.equal(restartPercent(rule(100_000), threshold), 29.9);
    assert.equal(restartPercent(rule(1_000_000), threshold), 200);
  });

  test("a broken threshold keeps shim's percent", () => {
    const rule = { thresholdPercent: 65, window: { percent: 50, windowTokens: null } };
    assert.equal(restartPercent(rule, { compactThreshold: 0, windowTokens: 200_000 }), 65);
    assert.equal(restartPercent(rule, { compactThreshold: 167_000, windowTokens: 0 }), 65);
  });
});
