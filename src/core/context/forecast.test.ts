import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  FORECAST_WINDOW,
  forecastCompaction,
  simulateTurnsLeft,
  withMinimumBasis,
  type Forecast,
} from './forecast.ts';
import type { ResponseRecord } from '../session.ts';

const START = Date.parse('2026-03-01T12:00:00Z');
const MINUTE = 60_000;

function response(turn: number, contextTokens: number, at: number | null = null): ResponseRecord {
  return {
    turn,
    firstLine: turn * 3,
    lastLine: turn * 3 + 1,
    contextTokens,
    outputTokens: 400,
    at,
    model: 'claude-opus-4-6',
    latencyMs: null,
  };
}

/** Responses on consecutive turns from `firstTurn`, one per context size given. */
function responses(contexts: number[], firstTurn = 1): ResponseRecord[] {
  return contexts.map((tokens, i) => response(firstTurn + i, tokens));
}

const NOTHING: Omit<Forecast, 'basis'> = {
  growthPerTurn: null,
  growthPerMinute: null,
  turnsToCompact: null,
  turnsToCompactLow: null,
  turnsToCompactHigh: null,
  minutesToCompact: null,
  minutesToCompactLow: null,
  minutesToCompactHigh: null,
  compactSoonProbability: null,
};

describe('forecastCompaction', () => {
  test('the growth rate is taken over the last 10 responses (chosen leave-one-out)', () => {
    assert.equal(FORECAST_WINDOW, 10);
  });

  test('without responses there is no forecast', () => {
    assert.deepEqual(forecastCompaction([], 167_000), { ...NOTHING, basis: 0 });
  });

  test('a single response is no basis for a rate', () => {
    assert.deepEqual(forecastCompaction([response(1, 50_000)], 167_000), { ...NOTHING, basis: 1 });
  });

  test('responses without a context size are not counted', () => {
    const forecast = forecastCompaction([response(1, 0), response(2, 50_000)], 167_000);
    assert.equal(forecast.basis, 1);
    assert.equal(forecast.turnsToCompact, null);
  });

  test('linear growth of 10k per response leaves room for two more below 167k', () => {
    // 140k now: 150k and 160k stay below 167k, the third (170k) would cross it.
    const forecast = forecastCompaction(
      responses([100_000, 110_000, 120_000, 130_000, 140_000]),
      167_000,
    );
    assert.equal(forecast.growthPerTurn, 10_000);
    assert.equal(forecast.turnsToCompact, 2);
    assert.equal(forecast.basis, 5);
  });

  test('a response that would land exactly on the threshold does not count as fitting', () => {
    // 140k now: 150k and 160k fit, 170k reaches the 170k threshold.
    const forecast = forecastCompaction(responses([120_000, 130_000, 140_000]), 170_000);
    assert.equal(forecast.turnsToCompact, 2);
  });

  test('one token more of room lets the next response fit as well', () => {
    const forecast = forecastCompaction(responses([120_000, 130_000, 140_000]), 170_001);
    assert.equal(forecast.turnsToCompact, 3);
  });

  test('when less than one response of growth is left, no further response fits', () => {
    const forecast = forecastCompaction(responses([150_000, 160_000]), 167_000);
    assert.equal(forecast.turnsToCompact, 0);
  });

  test('a context already over the threshold has zero responses and minutes left', () => {
    const forecast = forecastCompaction(responses([160_000, 170_000]), 167_000);
    assert.equal(forecast.turnsToCompact, 0);
    assert.equal(forecast.minutesToCompact, 0);
  });

  test('a context exactly at the threshold has zero responses left', () => {
    const forecast = forecastCompaction(responses([160_000, 167_000]), 167_000);
    assert.equal(forecast.turnsToCompact, 0);
  });

  test('a context over the threshold has zero responses left even when it is shrinking', () => {
    const forecast = forecastCompaction(responses([190_000, 180_000]), 167_000);
    assert.equal(forecast.turnsToCompact, 0);
    assert.equal(forecast.growthPerTurn, -10_000);
  });

  test('a shrinking context has a negative rate and no forecast', () => {
    const forecast = forecastCompaction(responses([120_000, 115_000, 110_000]), 167_000);
    assert.equal(forecast.growthPerTurn, -5_000);
    assert.equal(forecast.turnsToCompact, null);
    assert.equal(forecast.minutesToCompact, null);
  });

  test('a flat context has a zero rate and no forecast', () => {
    const forecast = forecastCompaction(responses([80_000, 80_000, 80_000]), 167_000);
    assert.equal(forecast.growthPerTurn, 0);
    assert.equal(forecast.turnsToCompact, null);
  });

  test('the rate is the mean over the window, so a single big jump counts in full', () => {
    // 32k over three responses: 10,667 per response; 35k left → three more fit.
    const forecast = forecastCompaction(responses([100_000, 101_000, 131_000, 132_000]), 167_000);
    assert.equal(forecast.growthPerTurn, 10_667);
    assert.equal(forecast.turnsToCompact, 3);
  });

  test('the rate is measured per turn number, so responses missing in between are accounted for', () => {
    const forecast = forecastCompaction([response(1, 100_000), response(5, 140_000)], 167_000);
    assert.equal(forecast.growthPerTurn, 10_000);
    assert.equal(forecast.turnsToCompact, 2);
  });

  test('only the last 11 responses (10 steps) set the rate', () => {
    // Fast early growth (20k per response) then 1k per response over the last 15 steps.
    const early = [10_000, 30_000, 50_000, 70_000];
    const late = Array.from({ length: 16 }, (_, i) => 90_000 + i * 1_000);
    const forecast = forecastCompaction(responses([...early, ...late]), 167_000);
    assert.equal(forecast.basis, 11);
    assert.equal(forecast.growthPerTurn, 1_000);
    // 105k now, 62k left: 61 more responses of 1k fit below 167k at the mean rate; the early
    // 20k jumps are still among the last 30 steps, so the interval leans lower and pulls it in.
    assert.ok(forecast.turnsToCompact! <= 61);
    assert.ok(forecast.turnsToCompactLow! < forecast.turnsToCompact!);
    assert.ok(forecast.turnsToCompactHigh! >= forecast.turnsToCompact!);
  });

  test('a smaller window looks at fewer responses', () => {
    const forecast = forecastCompaction(responses([10_000, 50_000, 60_000, 70_000]), 167_000, 2);
    assert.equal(forecast.basis, 3);
    assert.equal(forecast.growthPerTurn, 10_000);
  });

  test('growth per minute and minutes to compaction come from the timestamps', () => {
    const forecast = forecastCompaction(
      [
        response(1, 100_000, START),
        response(2, 110_000, START + MINUTE),
        response(3, 120_000, START + 2 * MINUTE),
      ],
      167_000,
    );
    assert.equal(forecast.growthPerMinute, 10_000);
    assert.equal(forecast.minutesToCompact, 4.7);
    assert.equal(forecast.turnsToCompact, 4);
  });

  test('growth per minute is rounded to whole tokens and minutes to one decimal', () => {
    const forecast = forecastCompaction(
      [response(1, 100_000, START), response(2, 110_000, START + 3 * MINUTE)],
      167_000,
    );
    assert.equal(forecast.growthPerMinute, 3_333);
    assert.equal(forecast.minutesToCompact, 17.1);
  });

  test('without timestamps at both ends there is no time-based forecast', () => {
    const forecast = forecastCompaction(
      [response(1, 100_000, START), response(2, 110_000, null)],
      167_000,
    );
    assert.equal(forecast.growthPerMinute, null);
    assert.equal(forecast.minutesToCompact, null);
    // The per-response forecast does not need timestamps: 110k now, 57k left at 10k each.
    assert.equal(forecast.turnsToCompact, 5);
  });

  test('timestamps that do not move forward give no time-based forecast', () => {
    const forecast = forecastCompaction(
      [response(1, 100_000, START), response(2, 110_000, START)],
      167_000,
    );
    assert.equal(forecast.growthPerMinute, null);
    assert.equal(forecast.minutesToCompact, null);
  });
});

describe('forecastCompaction: the 80% interval', () => {
  test('steady growth leaves no doubt: the interval is the estimate', () => {
    const forecast = forecastCompaction(
      responses([100_000, 110_000, 120_000, 130_000, 140_000]),
      167_000,
    );
    assert.deepEqual(
      [forecast.turnsToCompactLow, forecast.turnsToCompact, forecast.turnsToCompactHigh],
      [2, 2, 2],
    );
    assert.equal(forecast.compactSoonProbability, 1);
  });

  test('growth in jumps gives a range around the estimate', () => {
    // Mostly 500 tokens per response, every fourth one a 12k file read.
    const contexts = [60_000];
    for (let i = 1; i < 24; i++) contexts.push(contexts[i - 1]! + (i % 4 === 0 ? 12_000 : 500));
    const forecast = forecastCompaction(responses(contexts), 167_000);
    const { turnsToCompactLow: low, turnsToCompact: mid, turnsToCompactHigh: high } = forecast;
    assert.ok(low! < high!, `${low}–${high}`);
    assert.ok(low! <= mid! && mid! <= high!);
    assert.ok(forecast.compactSoonProbability! > 0 && forecast.compactSoonProbability! < 1);
  });

  test('minutes follow the responses: the range in time comes from minutes per response', () => {
    const forecast = forecastCompaction(
      [
        response(1, 100_000, START),
        response(2, 110_000, START + MINUTE),
        response(3, 120_000, START + 2 * MINUTE),
      ],
      167_000,
    );
    assert.equal(forecast.turnsToCompactLow, 4);
    assert.equal(forecast.minutesToCompactLow, 5);
    assert.equal(forecast.minutesToCompactHigh, 5);
  });

  test('the same session state always gives the same interval', () => {
    const contexts = [60_000, 61_000, 75_000, 75_500, 90_000, 90_200, 91_000];
    const a = forecastCompaction(responses(contexts), 167_000);
    const b = forecastCompaction(responses(contexts), 167_000);
    assert.deepEqual(a, b);
  });

  test('too few responses show neither the estimate nor the interval', () => {
    const forecast = withMinimumBasis(
      forecastCompaction(responses([100_000, 110_000, 120_000]), 167_000),
      false,
    );
    assert.equal(forecast.turnsToCompactLow, null);
    assert.equal(forecast.turnsToCompactHigh, null);
    assert.equal(forecast.growthPerTurn, 10_000);
  });
});

describe('simulateTurnsLeft', () => {
  test('no steps, no simulation', () => {
    assert.equal(simulateTurnsLeft(10_000, []), null);
  });

  test('a profile from other sessions fills in for a session with few steps', () => {
    const own = [1_000];
    const alone = simulateTurnsLeft(50_000, own)!;
    const withProfile = simulateTurnsLeft(50_000, own, [10_000, 10_000, 10_000])!;
    assert.deepEqual([alone.low, alone.high], [49, 49]);
    assert.ok(withProfile.low < alone.low);
  });

  test('futures that never reach the threshold count as many', () => {
    const result = simulateTurnsLeft(50_000, [0, -10])!;
    assert.equal(result.high, 99);
    assert.equal(result.soon, 0);
  });
});
