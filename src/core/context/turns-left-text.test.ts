import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatTurnsLeft, pluralFor } from './turns-left-text.ts';

const f = (turnsToCompact: number | null, low: number | null, high: number | null) => ({
  turnsToCompact,
  turnsToCompactLow: low,
  turnsToCompactHigh: high,
});

describe('formatTurnsLeft', () => {
  test('a range where growth comes in jumps, one number where it is steady', () => {
    assert.equal(formatTurnsLeft(f(6, 4, 9)), '~4–9');
    assert.equal(formatTurnsLeft(f(6, 6, 6)), '~6');
    assert.equal(formatTurnsLeft(f(6, null, null)), '~6');
    assert.equal(formatTurnsLeft(f(60, 40, null)), '40+');
    assert.equal(formatTurnsLeft(f(null, null, null)), null);
  });

  test('the word follows the upper end', () => {
    assert.equal(pluralFor(f(1, 1, 1), 'turn'), 'turn');
    assert.equal(pluralFor(f(1, 0, 2), 'turn'), 'turns');
    assert.equal(pluralFor(f(1, null, null), 'response'), 'response');
  });
});
