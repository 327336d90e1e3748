/**
 * Exhaustion forecast (docs/specification.md): how fast the context grows and how many more
 * model responses fit before auto-compaction.
 * @module
 */
import type { ResponseRecord } from './session.ts';

/** How many recent responses the growth rate is taken over. */
export const FORECAST_WINDOW = 15;

/**
 * Fewer responses than this since a compaction give a rate, but no turns-to-compact: the first
 * responses of a session (loading files, a plan) grow far faster than the rest.
 */
export const MIN_FORECAST_BASIS = 5;

/** The forecast as shown and acted on: turns and minutes only once the basis is wide enough. */
export function withMinimumBasis(
  forecast: Forecast,
  thresholdReached: boolean,
  minBasis = MIN_FORECAST_BASIS,
): Forecast {
  if (forecast.basis >= minBasis || thresholdReached) return forecast;
  return { ...forecast, turnsToCompact: null, minutesToCompact: null };
}

export type Forecast = {
  /** Mean context growth per model response over the window, tokens. */
  growthPerTurn: number | null;
  /** Context growth per minute of wall time over the window, tokens. */
  growthPerMinute: number | null;
  /** Further model responses expected to complete before auto-compaction triggers. */
  turnsToCompact: number | null;
  minutesToCompact: number | null;
  /** Responses the estimate is based on. */
  basis: number;
};

const NO_FORECAST: Forecast = {
  growthPerTurn: null,
  growthPerMinute: null,
  turnsToCompact: null,
  minutesToCompact: null,
  basis: 0,
};

/**
 * Forecasts from the responses since the last compaction (oldest first).
 *
 * The rate is the mean over the window, not the median: context grows in jumps (a file read,
 * a long tool result) and the jumps are what use the window up.
 */
export function forecastCompaction(
  responses: readonly ResponseRecord[],
  compactThreshold: number,
  window = FORECAST_WINDOW,
): Forecast {
  const recent = responses.filter((r) => r.contextTokens > 0).slice(-(window + 1));
  const last = recent[recent.length - 1];
  const first = recent[0];
  if (!last || !first || recent.length < 2) return { ...NO_FORECAST, basis: recent.length };
  const growth = last.contextTokens - first.contextTokens;
  const turns = last.turn - first.turn;
  const growthPerTurn = turns > 0 ? growth / turns : null;
  const minutes =
    last.at !== null && first.at !== null && last.at > first.at
      ? (last.at - first.at) / 60_000
      : null;
  const growthPerMinute = minutes !== null && minutes > 0 ? growth / minutes : null;
  const remaining = compactThreshold - last.contextTokens;
  let turnsToCompact: number | null = null;
  let minutesToCompact: number | null = null;
  if (remaining <= 0) {
    turnsToCompact = 0;
    minutesToCompact = 0;
  } else {
    if (growthPerTurn !== null && growthPerTurn > 0) {
      // Responses k = 1, 2, … complete while last + k·g stays below the threshold.
      turnsToCompact = Math.max(0, Math.ceil(remaining / growthPerTurn) - 1);
    }
    if (growthPerMinute !== null && growthPerMinute > 0) {
      minutesToCompact = Math.round((remaining / growthPerMinute) * 10) / 10;
    }
  }
  return {
    growthPerTurn: growthPerTurn === null ? null : Math.round(growthPerTurn),
    growthPerMinute: growthPerMinute === null ? null : Math.round(growthPerMinute),
    turnsToCompact,
    minutesToCompact,
    basis: recent.length,
  };
}
