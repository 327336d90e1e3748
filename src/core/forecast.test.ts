import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FORECAST_WINDOW, forecastCompaction } from './forecast.ts';
import type { ResponseRecord } from './session.ts';

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

describe('forecastCompaction', () => {
  test('the growth rate is taken over the last 15 responses', () => {
    assert.equal(FORECAST_WINDOW, 15);
  });

  test('without responses there is no forecast', () => {
    assert.deepEqual(forecastCompaction([], 167_000), {
      growthPerTurn: null,
      growthPerMinute: null,
      turnsToCompact: null,
      minutesToCompact: null,
      basis: 0,
    });
  });

  test('a single response is no basis for a rate', () => {
    assert.deepEqual(forecastCompaction([response(1, 50_000)], 167_000), {
      growthPerTurn: null,
      growthPerMinute: null,
      turnsToCompact: null,
      minutesToCompact: null,
      basis: 1,
    });
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

  test('only the last 16 responses (15 steps) set the rate', () => {
    // Fast early growth (20k per response) then 1k per response over the last 15 steps.
    const early = [10_000, 30_000, 50_000, 70_000];
    const late = Array.from({ length: 16 }, (_, i) => 90_000 + i * 1_000);
    const forecast = forecastCompaction(responses([...early, ...late]), 167_000);
    assert.equal(forecast.basis, 16);
    assert.equal(forecast.growthPerTurn, 1_000);
    // 105k now, 62k left: 61 more responses of 1k fit below 167k.
    assert.equal(forecast.turnsToCompact, 61);
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
