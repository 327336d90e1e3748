import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isHit,
  scoreSession,
  summarizeDistances,
  summarizeForecasts,
  type MetricCompact,
  type MetricEvent,
  type MetricTurn,
} from './evaluation-metrics.ts';

function turn(n: number, changes: Partial<MetricTurn> = {}): MetricTurn {
  return {
    kind: 'turn',
    turn: n,
    level: 'L0',
    risk: 'safe',
    percent: 50,
    compactThreshold: 167_000,
    turnsToCompact: null,
    turnsToCompactLow: null,
    turnsToCompactHigh: null,
    ...changes,
  };
}

function compact(changes: Partial<MetricCompact> = {}): MetricCompact {
  return {
    kind: 'compact',
    trigger: 'auto',
    compactionKind: 'threshold',
    preTokens: 168_000,
    lastContextTokens: 166_000,
    ...changes,
  };
}

describe('scoreSession', () => {
  test('a threshold inside [last context, preTokens] (3% slack) is consistent', () => {
    const events: MetricEvent[] = [
      turn(1),
      compact(),
      turn(2, { compactThreshold: 150_000 }),
      compact(),
    ];
    assert.deepEqual(scoreSession(events).thresholds, { consistent: 1, total: 1 + 1 });
  });

  test('idle, put-off and manual compactions are not scored', () => {
    const events: MetricEvent[] = [
      turn(1),
      compact({ compactionKind: 'idle' }),
      turn(2),
      compact({ trigger: 'manual', compactionKind: 'manual' }),
      turn(3),
      compact({ compactionKind: 'put-off' }),
    ];
    const metrics = scoreSession(events);
    assert.equal(metrics.thresholds.total, 0);
    assert.deepEqual(metrics.forecasts, []);
  });

  test('the L2 lead counts responses from the first L2 to the compaction', () => {
    const events: MetricEvent[] = [
      turn(1),
      turn(2, { level: 'L2' }),
      turn(3, { level: 'L3' }),
      turn(4, { level: 'L3' }),
      compact(),
      turn(5),
      compact(),
    ];
    assert.deepEqual(scoreSession(events).l2Leads, [3, 0]);
  });

  test('the last ten responses before a compaction are scored against what happened', () => {
    const events: MetricEvent[] = [];
    for (let n = 1; n <= 12; n++)
      events.push(
        turn(n, { turnsToCompact: 12 - n, turnsToCompactLow: 10 - n, turnsToCompactHigh: 14 - n }),
      );
    events.push(compact());
    const { forecasts } = scoreSession(events);
    assert.equal(forecasts.length, 10);
    assert.deepEqual(forecasts[0], { actual: 9, forecast: 9, low: 7, high: 11 });
  });
});

describe('summarizeForecasts', () => {
  test('a hit is within max(1, 30%) of what happened', () => {
    assert.equal(isHit({ actual: 10, forecast: 13 }), true);
    assert.equal(isHit({ actual: 10, forecast: 14 }), false);
    assert.equal(isHit({ actual: 0, forecast: 1 }), true);
    assert.equal(isHit({ actual: 2, forecast: null }), false);
  });

  test('hit rate, mean error, coverage and width', () => {
    const summary = summarizeForecasts([
      { actual: 5, forecast: 5, low: 3, high: 7 },
      { actual: 5, forecast: 9, low: 8, high: 12 },
      { actual: 2, forecast: null, low: null, high: null },
      { actual: 1, forecast: 1, low: 0, high: null },
    ]);
    assert.deepEqual(summary, {
      samples: 4,
      withForecast: 3,
      hitRate: 2 / 3,
      meanAbsoluteError: 4 / 3,
      intervalCoverage: 2 / 3,
      medianIntervalWidth: 4,
    });
  });
});

describe('summarizeDistances', () => {
  test('groups the responses before each auto compaction by distance; idle and manual ones say nothing', () => {
    const window = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        turn(i + 1, {
          percent: 80 + i,
          turnsToCompact: n - 1 - i,
          risk: n - 1 - i <= 5 ? 'danger' : 'safe',
        }),
      );
    const events: MetricEvent[] = [
      ...window(16),
      compact(),
      ...window(12),
      compact({ trigger: 'manual', compactionKind: 'manual' }),
      ...window(12),
      compact({ compactionKind: 'idle' }),
    ];
    const buckets = summarizeDistances(scoreSession(events).distances);
    assert.deepEqual(
      buckets.map((b) => [b.from, b.to, b.positive, b.responses]),
      [
        [0, 3, true, 4],
        [4, 7, true, 4],
        [8, 9, true, 2],
        [10, 11, false, 2],
        [12, 14, false, 3],
        [15, 20, false, 1],
      ],
    );
    const near = buckets[0]!;
    assert.equal(near.medianPercent, 93, '95, 94, 93, 92: the lower middle');
    assert.equal(near.nearThreshold, 1);
    assert.deepEqual(near.forecastQuartiles, [0, 1, 2]);
    assert.equal(near.flagged, 1);
    assert.equal(buckets[2]!.flagged, 0);
  });
});
