import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  EVALUATION_HORIZON,
  getAccuracy,
  mergeRiskScores,
  scoreForecast,
  scoreRisk,
  summarizeForecast,
  type EvaluatedEvent,
  type EvaluatedTurn,
  type RiskScore,
} from './evaluate.ts';
import type { CrashRisk } from './risk.ts';

const AUTO: EvaluatedEvent = { kind: 'compact', trigger: 'auto' };
const MANUAL: EvaluatedEvent = { kind: 'compact', trigger: 'manual' };

function turn(
  n: number,
  risk: CrashRisk = 'safe',
  turnsToCompact: number | null = null,
): EvaluatedTurn {
  return { kind: 'turn', turn: n, risk, turnsToCompact };
}

/** Turns `from`..`to`, flagged as danger from `dangerFrom` on. */
function turns(from: number, to: number, dangerFrom = Infinity): EvaluatedTurn[] {
  const out: EvaluatedTurn[] = [];
  for (let n = from; n <= to; n++) out.push(turn(n, n >= dangerFrom ? 'danger' : 'safe'));
  return out;
}

const EMPTY_SCORE: RiskScore = {
  scored: 0,
  truePositive: 0,
  falsePositive: 0,
  trueNegative: 0,
  falseNegative: 0,
};

describe('scoreRisk', () => {
  test('the horizon is ten responses', () => {
    assert.equal(EVALUATION_HORIZON, 10);
  });

  test('no events score nothing', () => {
    assert.deepEqual(scoreRisk([]), EMPTY_SCORE);
  });

  test('turns with fewer than ten further responses before an auto compaction are positives', () => {
    // Turn 3 has 9 more responses (4–12) before the compaction: positive. Turn 2 has 10: negative.
    // Danger is flagged from turn 5 on, so turns 3 and 4 are missed.
    assert.deepEqual(scoreRisk([...turns(1, 12, 5), AUTO]), {
      scored: 12,
      truePositive: 8,
      falsePositive: 0,
      trueNegative: 2,
      falseNegative: 2,
    });
  });

  test('danger flagged too early is a false positive', () => {
    assert.deepEqual(scoreRisk([...turns(1, 12, 1), AUTO]), {
      scored: 12,
      truePositive: 10,
      falsePositive: 2,
      trueNegative: 0,
      falseNegative: 0,
    });
  });

  test('a warning is not a prediction: only danger counts as flagged', () => {
    const events = [turn(1, 'warning'), turn(2, 'warning'), AUTO];
    assert.deepEqual(scoreRisk(events), { ...EMPTY_SCORE, scored: 2, falseNegative: 2 });
  });

  test('turns within the horizon of a manual compaction are left out', () => {
    // Turns 1 and 2 are 10+ responses away from the manual compaction and score as negatives.
    assert.deepEqual(scoreRisk([...turns(1, 12, 1), MANUAL]), {
      scored: 2,
      truePositive: 0,
      falsePositive: 2,
      trueNegative: 0,
      falseNegative: 0,
    });
  });

  test('the last turns of a file that ends without a compaction are left out', () => {
    // Turn 5 has ten responses after it (6–15) and no compaction: a known negative.
    // Turns 6–15 have fewer than ten after them and an unknown future.
    assert.deepEqual(scoreRisk(turns(1, 15)), { ...EMPTY_SCORE, scored: 5, trueNegative: 5 });
  });

  test('only the first compaction ahead decides a turn', () => {
    const events = [turn(1, 'danger'), MANUAL, turn(2, 'danger'), AUTO];
    assert.deepEqual(scoreRisk(events), { ...EMPTY_SCORE, scored: 1, truePositive: 1 });
  });

  test('events other than turns do not count towards the horizon', () => {
    const noise: EvaluatedEvent = { kind: 'prompt' };
    const events = [turn(1, 'danger'), ...Array<EvaluatedEvent>(20).fill(noise), AUTO];
    assert.deepEqual(scoreRisk(events), { ...EMPTY_SCORE, scored: 1, truePositive: 1 });
  });

  test('a shorter horizon makes fewer positives', () => {
    assert.deepEqual(scoreRisk([...turns(1, 5), AUTO], 2), {
      scored: 5,
      truePositive: 0,
      falsePositive: 0,
      trueNegative: 3,
      falseNegative: 2,
    });
  });
});

describe('mergeRiskScores and getAccuracy', () => {
  test('merging adds the scores up', () => {
    const a: RiskScore = {
      scored: 4,
      truePositive: 1,
      falsePositive: 1,
      trueNegative: 1,
      falseNegative: 1,
    };
    const b: RiskScore = {
      scored: 6,
      truePositive: 2,
      falsePositive: 0,
      trueNegative: 4,
      falseNegative: 0,
    };
    assert.deepEqual(mergeRiskScores([a, b]), {
      scored: 10,
      truePositive: 3,
      falsePositive: 1,
      trueNegative: 5,
      falseNegative: 1,
    });
  });

  test('merging nothing gives an empty score', () => {
    assert.deepEqual(mergeRiskScores([]), EMPTY_SCORE);
  });

  test('accuracy, precision and recall are the usual ratios', () => {
    const score: RiskScore = {
      scored: 10,
      truePositive: 3,
      falsePositive: 1,
      trueNegative: 5,
      falseNegative: 1,
    };
    assert.deepEqual(getAccuracy(score), { accuracy: 0.8, precision: 0.75, recall: 0.75 });
  });

  test('ratios with nothing to divide by count as perfect', () => {
    assert.deepEqual(getAccuracy(EMPTY_SCORE), { accuracy: 1, precision: 1, recall: 1 });
  });
});

describe('scoreForecast', () => {
  test('the actual value is the number of further responses before the auto compaction', () => {
    const events = [
      turn(1, 'safe', 4),
      turn(2, 'safe', 3),
      turn(3, 'safe', 3),
      turn(4, 'safe', null),
      turn(5, 'safe', 0),
      AUTO,
    ];
    assert.deepEqual(scoreForecast(events).samples, [
      { actual: 4, forecast: 4 },
      { actual: 3, forecast: 3 },
      { actual: 2, forecast: 3 },
      { actual: 1, forecast: null },
      { actual: 0, forecast: 0 },
    ]);
  });

  test('only the last ten turns before a compaction are sampled', () => {
    const { samples } = scoreForecast([...turns(1, 25), AUTO]);
    assert.deepEqual(
      samples.map((s) => s.actual),
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    );
  });

  test('a manual compaction produces no samples and starts a new segment', () => {
    const events = [...turns(1, 5), MANUAL, turn(6), turn(7), AUTO];
    assert.deepEqual(
      scoreForecast(events).samples.map((s) => s.actual),
      [1, 0],
    );
  });

  test('each auto compaction is scored on its own segment', () => {
    const events = [turn(1), turn(2), AUTO, turn(3), turn(4), turn(5), AUTO];
    assert.deepEqual(
      scoreForecast(events).samples.map((s) => s.actual),
      [1, 0, 2, 1, 0],
    );
  });

  test('an auto compaction with no turns before it gives no samples', () => {
    assert.deepEqual(scoreForecast([AUTO, AUTO]).samples, []);
  });

  test('turns after the last compaction are not sampled', () => {
    assert.deepEqual(scoreForecast([turn(1), AUTO, ...turns(2, 9)]).samples, [
      { actual: 0, forecast: null },
    ]);
  });
});

describe('summarizeForecast', () => {
  test('errors are forecast minus actual over the samples that have a forecast', () => {
    const summary = summarizeForecast({
      samples: [
        { actual: 4, forecast: 5 },
        { actual: 3, forecast: 1 },
        { actual: 2, forecast: null },
        { actual: 1, forecast: 1 },
        { actual: 0, forecast: 4 },
      ],
    });
    // Errors +1, −2, 0, +4.
    assert.deepEqual(summary, {
      samples: 5,
      withForecast: 4,
      meanAbsoluteError: 1.75,
      medianAbsoluteError: 2,
      meanError: 0.75,
      withinTwo: 3,
    });
  });

  test('without any forecast the errors are null', () => {
    assert.deepEqual(summarizeForecast({ samples: [{ actual: 3, forecast: null }] }), {
      samples: 1,
      withForecast: 0,
      meanAbsoluteError: null,
      medianAbsoluteError: null,
      meanError: null,
      withinTwo: 0,
    });
  });
});
