import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getModelGuidance, getUserAlert } from './alerts.ts';
import { assessSession, type Assessment } from './assess.ts';
import type { Level } from './level.ts';
import { createSessionState } from '../session.ts';
import { claudeRuleFor } from '../../agents/claude/threshold.test-helper.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const PERCENT: Record<Level, number> = { L0: 41.2, L1: 72.4, L2: 86.6, L3: 96.3 };
const ALERT_LEVELS = ['L1', 'L2', 'L3'] as const;

/** A real assessment with the level, percent and turns to compaction set by hand. */
function assessment(level: Level, turnsToCompact: number | null = null): Assessment {
  const base = assessSession(createSessionState('claude'), {
    threshold: claudeRuleFor(createSessionState('claude')),
    now: NOW,
  });
  return {
    ...base,
    level,
    percent: PERCENT[level],
    forecast: { ...base.forecast, turnsToCompact, basis: turnsToCompact === null ? 0 : 10 },
  };
}

describe('getUserAlert', () => {
  for (const level of ALERT_LEVELS) {
    test(`${level} names the rounded percentage and the level`, () => {
      const text = getUserAlert(level, assessment(level), 'Checkpoint #3 saved.');
      assert.match(text, new RegExp(`\\b${Math.round(PERCENT[level])}%`));
      assert.ok(text.includes(`(${level})`), text);
      assert.ok(text.includes('Checkpoint #3 saved.'), text);
    });
  }

  test('L0 has nothing to say', () => {
    assert.equal(getUserAlert('L0', assessment('L0'), 'Checkpoint #1 saved.'), '');
  });

  test('the forecast is added when there is one (L1, L3)', () => {
    assert.match(getUserAlert('L1', assessment('L1', 12), ''), /About 12 more responses fit/);
    assert.match(getUserAlert('L3', assessment('L3', 1), ''), /About 1 more response fit/);
    assert.match(getUserAlert('L3', assessment('L3', 0), ''), /Auto-compaction is due now\./);
    assert.doesNotMatch(getUserAlert('L1', assessment('L1'), ''), /About|due now/);
  });

  test('L2 points to shim handoff, L3 to the restore after compaction', () => {
    assert.match(getUserAlert('L2', assessment('L2'), ''), /`shim handoff`/);
    assert.match(getUserAlert('L3', assessment('L3'), ''), /restored after compaction/);
  });

  test('an empty checkpoint note leaves no stray or doubled spaces', () => {
    for (const level of ALERT_LEVELS) {
      for (const turns of [null, 4]) {
        const text = getUserAlert(level, assessment(level, turns), '');
        assert.equal(text, text.trim());
        assert.doesNotMatch(text, / {2}/, JSON.stringify(text));
      }
    }
  });

  test('the exact L2 notice', () => {
    assert.equal(
      getUserAlert('L2', assessment('L2'), 'Checkpoint #3 saved.'),
      '🔶 shim: context at 87% of the auto-compact threshold (L2). Checkpoint #3 saved. A handoff can be written with `shim handoff`. To finish one more task first: `shim defer`.',
    );
  });
});

describe('getModelGuidance', () => {
  for (const level of ALERT_LEVELS) {
    test(`${level} names the rounded percentage and the level`, () => {
      const text = getModelGuidance(level, assessment(level));
      assert.ok(text);
      assert.ok(text.startsWith('[shim] '), text);
      assert.ok(text.includes(`${Math.round(PERCENT[level])}%`), text);
      assert.ok(text.includes(`(${level})`), text);
    });
  }

  test('L0 gives no guidance', () => {
    assert.equal(getModelGuidance('L0', assessment('L0')), null);
  });

  test('the wording is advisory: no orders, no shouting', () => {
    for (const level of ALERT_LEVELS) {
      for (const turns of [null, 0, 3]) {
        const text = getModelGuidance(level, assessment(level, turns)) ?? '';
        assert.doesNotMatch(text, /\b(stop|must|immediately|urgent|important|never)\b/i, text);
        assert.doesNotMatch(text, /\b[A-Z]{3,}\b/, `no all-caps words: ${text}`);
        assert.doesNotMatch(text, /!/, text);
      }
    }
  });

  test("at L2 the user's request still comes first", () => {
    assert.match(
      getModelGuidance('L2', assessment('L2')) ?? '',
      /the user's request still comes first/,
    );
  });

  test('the forecast is included when known', () => {
    assert.match(getModelGuidance('L1', assessment('L1', 7)) ?? '', /About 7 more responses fit/);
    assert.match(getModelGuidance('L3', assessment('L3', 0)) ?? '', /Auto-compaction is due now\./);
  });
});
