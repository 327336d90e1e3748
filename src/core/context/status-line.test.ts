import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderStatusline, type StatuslineView } from './status-line.ts';

const MINUTE = 60_000;

/** The seed-004 example: 82% at L2, risk warning, ~6 turns left, checkpoint 3 minutes ago. */
function view(changes: Partial<StatuslineView> = {}): StatuslineView {
  return {
    percent: 82,
    windowPercent: 68,
    level: 'L2',
    risk: 'warning',
    turnsToCompact: 6,
    turnsToCompactLow: 6,
    turnsToCompactHigh: 6,
    checkpointAgeMs: 3 * MINUTE,
    autoCompact: true,
    ...changes,
  };
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const strip = (s: string) => s.replace(ANSI, '');

const FULL = '[CTX ████████░░ 82% L2] [risk: warning] [~6 turns to compact] [ckpt 3m ago]';

describe('renderStatusline: layout', () => {
  test('growth in jumps shows the 80% range of turns left', () => {
    const line = renderStatusline(
      view({ turnsToCompact: 6, turnsToCompactLow: 4, turnsToCompactHigh: 9 }),
      120,
      false,
    );
    assert.equal(
      line,
      '[CTX ████████░░ 82% L2] [risk: warning] [~4–9 turns to compact] [ckpt 3m ago]',
    );
  });

  test('at 120 columns the whole seed-004 line is shown', () => {
    assert.equal(renderStatusline(view(), 120, false), FULL);
  });

  test('the full line fits exactly in its own width', () => {
    assert.equal(FULL.length, 75);
    assert.equal(renderStatusline(view(), 75, false), FULL);
    assert.equal(
      renderStatusline(view(), 74, false),
      '[CTX ████████░░ 82% L2] [risk: warning] [~6 turns to compact]',
    );
  });

  test('segments are dropped from the right as the columns shrink, then the bar narrows', () => {
    assert.equal(renderStatusline(view(), 80, false), FULL);
    assert.equal(renderStatusline(view(), 60, false), '[CTX ████████░░ 82% L2] [risk: warning]');
    assert.equal(renderStatusline(view(), 40, false), '[CTX ████████░░ 82% L2] [risk: warning]');
    assert.equal(renderStatusline(view(), 30, false), '[CTX ████████░░ 82% L2]');
    assert.equal(renderStatusline(view(), 20, false), '[CTX █████░ 82% L2]');
    assert.equal(renderStatusline(view(), 15, false), '[CTX 82% L2]');
  });

  test("the session's issue comes last, and goes first when the line is narrow", () => {
    const withIssue = view({ issue: 'ANV-123' });
    assert.equal(renderStatusline(withIssue, 120, false), `${FULL} [ISSUE: ANV-123]`);
    assert.equal(renderStatusline(withIssue, 80, false), FULL);
    const working = view({ issue: 'ANV-123', phase: 'implementing' });
    assert.equal(renderStatusline(working, 140, false), `${FULL} [ISSUE: ANV-123] [PHASE: IMPL]`);
    assert.equal(
      renderStatusline(view({ phase: 'testing' }), 140, false),
      FULL,
      'no issue, no phase',
    );
  });

  test('the line never exceeds the columns when a fitting form exists', () => {
    for (let columns = 12; columns <= 130; columns++) {
      for (const color of [false, true]) {
        const line = strip(renderStatusline(view(), columns, color));
        assert.ok(line.length <= columns, `${columns} columns: ${JSON.stringify(line)}`);
      }
    }
  });

  test('below the narrowest bracketed form only the percentage and level are left', () => {
    // The fallback is not cut to the columns; the statusline runner never asks for under 20.
    assert.equal(renderStatusline(view(), 11, false), '82% L2');
    assert.equal(renderStatusline(view(), 3, false), '82% L2');
  });

  test('the bar fills in proportion to the percentage, capped at full', () => {
    assert.match(renderStatusline(view({ percent: 0, level: 'L0' }), 120, false), /░{10} 0% L0/);
    assert.match(renderStatusline(view({ percent: 50, level: 'L0' }), 120, false), /█{5}░{5} 50%/);
    assert.match(renderStatusline(view({ percent: 100, level: 'L3' }), 120, false), /█{10} 100%/);
    assert.match(renderStatusline(view({ percent: 130, level: 'L3' }), 120, false), /█{10} 130%/);
  });

  test('the percentage is rounded', () => {
    assert.match(renderStatusline(view({ percent: 82.6 }), 120, false), / 83% L2\]/);
  });
});

describe('renderStatusline: segments', () => {
  test('one turn left is singular', () => {
    assert.match(
      renderStatusline(
        view({ turnsToCompact: 1, turnsToCompactLow: 1, turnsToCompactHigh: 1 }),
        120,
        false,
      ),
      /\[~1 turn to compact\]/,
    );
  });

  test('0 turns to compaction reads "compact due"', () => {
    assert.equal(
      renderStatusline(view({ turnsToCompact: 0 }), 120, false),
      '[CTX ████████░░ 82% L2] [risk: warning] [compact due] [ckpt 3m ago]',
    );
  });

  test('no forecast leaves the turns segment out', () => {
    const expected = '[CTX ████████░░ 82% L2] [risk: warning] [ckpt 3m ago]';
    assert.equal(renderStatusline(view({ turnsToCompact: null }), 120, false), expected);
  });

  test('auto-compaction off says so instead of a forecast of a compaction that never comes', () => {
    assert.equal(
      renderStatusline(view({ autoCompact: false }), 120, false),
      '[CTX ████████░░ 82% L2] [risk: warning] [auto-compact off] [ckpt 3m ago]',
    );
  });

  test('the compaction counter shows from the first compaction', () => {
    assert.equal(
      renderStatusline(view({ compactions: 2 }), 120, false),
      '[CTX ████████░░ 82% L2] [risk: warning] [~6 turns to compact] [compacted 2×] [ckpt 3m ago]',
    );
    assert.doesNotMatch(renderStatusline(view({ compactions: 0 }), 120, false), /compacted/);
  });

  test('without a checkpoint the last segment says so', () => {
    assert.equal(
      renderStatusline(view({ checkpointAgeMs: null }), 120, false),
      '[CTX ████████░░ 82% L2] [risk: warning] [~6 turns to compact] [no ckpt yet]',
    );
  });

  test('the checkpoint age is in seconds, minutes or hours', () => {
    const ageOf = (ms: number) =>
      /\[ckpt (\S+) ago\]/.exec(renderStatusline(view({ checkpointAgeMs: ms }), 120, false))?.[1];
    assert.equal(ageOf(0), '0s');
    assert.equal(ageOf(-5000), '0s');
    assert.equal(ageOf(45_000), '45s');
    assert.equal(ageOf(90_000), '2m');
    assert.equal(ageOf(3 * MINUTE), '3m');
    assert.equal(ageOf(2 * 60 * MINUTE), '2h');
  });
});

describe('renderStatusline: colour', () => {
  test('without colour there are no escape codes', () => {
    for (const columns of [20, 40, 60, 80, 120]) {
      assert.doesNotMatch(renderStatusline(view(), columns, false), ANSI);
    }
  });

  test('with colour the text is the same once the escape codes are removed', () => {
    for (const columns of [11, 15, 20, 40, 60, 74, 75, 80, 120]) {
      const colored = renderStatusline(view(), columns, true);
      assert.match(colored, ANSI);
      assert.equal(strip(colored), renderStatusline(view(), columns, false), `${columns} columns`);
    }
  });

  test('escape codes do not count towards the width', () => {
    const colored = renderStatusline(view(), 75, true);
    assert.ok(colored.length > 75);
    assert.equal(strip(colored), FULL);
  });

  test('the level and the risk are painted in their own colours', () => {
    const line = renderStatusline(view({ level: 'L3', risk: 'danger', percent: 97 }), 120, true);
    assert.ok(line.startsWith('\u001b[1;31m[CTX '), JSON.stringify(line));
    assert.ok(line.includes('[risk: \u001b[1;31mdanger\u001b[0m]'), JSON.stringify(line));
    const calm = renderStatusline(view({ level: 'L0', risk: 'safe', percent: 20 }), 120, true);
    assert.ok(calm.startsWith('\u001b[32m[CTX '), JSON.stringify(calm));
    assert.ok(calm.includes('[risk: \u001b[32msafe\u001b[0m]'), JSON.stringify(calm));
  });
});
