import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_LEVEL_THRESHOLDS, getLevel, LEVEL_NAMES, LEVELS, toPercent } from './level.ts';

describe('getLevel', () => {
  test('the defaults start L1 at 70%, L2 at 85% and L3 at 95% of the threshold', () => {
    assert.deepEqual(DEFAULT_LEVEL_THRESHOLDS, { L1: 70, L2: 85, L3: 95 });
  });

  test('a session below 70% is at L0', () => {
    assert.equal(getLevel(0), 'L0');
    assert.equal(getLevel(69.9), 'L0');
  });

  test('a session at exactly 70% is at L1, and stays there up to just under 85%', () => {
    assert.equal(getLevel(70), 'L1');
    assert.equal(getLevel(84.9), 'L1');
  });

  test('a session at exactly 85% is at L2, and stays there up to just under 95%', () => {
    assert.equal(getLevel(85), 'L2');
    assert.equal(getLevel(94.9), 'L2');
  });

  test('a session at 95% or beyond is at L3, even past 100%', () => {
    assert.equal(getLevel(95), 'L3');
    assert.equal(getLevel(100), 'L3');
    assert.equal(getLevel(150), 'L3');
  });

  test('custom thresholds move the boundaries', () => {
    const thresholds = { L1: 50, L2: 60, L3: 80 };
    assert.equal(getLevel(49, thresholds), 'L0');
    assert.equal(getLevel(50, thresholds), 'L1');
    assert.equal(getLevel(60, thresholds), 'L2');
    assert.equal(getLevel(80, thresholds), 'L3');
  });

  test('every level has a name, from normal to emergency', () => {
    assert.deepEqual(
      LEVELS.map((level) => LEVEL_NAMES[level]),
      ['normal', 'warning', 'critical', 'emergency'],
    );
  });
});

describe('toPercent', () => {
  test('the share is given in percent, rounded to one decimal', () => {
    assert.equal(toPercent(1, 3), 33.3);
    assert.equal(toPercent(2, 3), 66.7);
    assert.equal(toPercent(140_000, 167_000), 83.8);
  });

  test('whole shares come out exact', () => {
    assert.equal(toPercent(0, 200_000), 0);
    assert.equal(toPercent(100_000, 200_000), 50);
    assert.equal(toPercent(167_000, 167_000), 100);
  });

  test('more tokens than the total give more than 100%', () => {
    assert.equal(toPercent(250_000, 200_000), 125);
  });

  test('a zero or negative total gives 0 rather than Infinity or NaN', () => {
    assert.equal(toPercent(5_000, 0), 0);
    assert.equal(toPercent(5_000, -1), 0);
  });
});
