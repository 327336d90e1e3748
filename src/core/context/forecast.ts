/**
 * Exhaustion forecast (docs/specification.md): how fast the context grows and how many more
 * model responses fit before auto-compaction — a central estimate and an 80% interval.
 *
 * Context grows in jumps (a file read, a long tool result), so one number over-promises. The
 * interval comes from replaying the session's own recent growth steps in random order (and,
 * early in a window, steps from the user's other sessions): the 10th and 90th percentiles of
 * the responses that fit.
 * @module
 */
import type { ResponseRecord } from '../session.ts';

/** How many recent responses the growth rate is taken over. */
export const FORECAST_WINDOW = 10;
/** How many recent growth steps the interval draws from. */
export const INTERVAL_WINDOW = 30;
/**
 * Simulated futures per forecast. It runs cold on every hook call: 150 keep the 10th/90th
 * percentiles stable (leave-one-out coverage moved under a point from 300) at ~2 ms.
 */
const SIMULATIONS = 150;
/**
 * A future that has not compacted after this many responses counts as "many" ("100+"): a
 * range past it says nothing more, and the simulation runs on every hook call (300 futures of
 * up to 400 steps cost a hook 7 ms).
 */
const MAX_SIMULATED_TURNS = 100;
/** "Soon" is within this many responses: what danger means (docs/specification.md). */
export const SOON_HORIZON = 10;
/** The user's other sessions weigh as much as this many of the session's own steps. */
const PROFILE_WEIGHT = 2;

/**
 * Fewer responses than this since a compaction give a rate, but no turns-to-compact: the first
 * responses of a session (loading files, a plan) grow far faster than the rest.
 */
export const MIN_FORECAST_BASIS = 5;

export type Forecast = {
  /** Mean context growth per model response over the window, tokens. */
  growthPerTurn: number | null;
  /** Context growth per minute of wall time over the window, tokens. */
  growthPerMinute: number | null;
  /** Further model responses expected to complete before auto-compaction triggers. */
  turnsToCompact: number | null;
  /** The 80% interval around it: 10th and 90th percentile. */
  turnsToCompactLow: number | null;
  turnsToCompactHigh: number | null;
  minutesToCompact: number | null;
  minutesToCompactLow: number | null;
  minutesToCompactHigh: number | null;
  /** Share of simulated futures that compact within SOON_HORIZON responses. */
  compactSoonProbability: number | null;
  /** Responses the estimate is based on. */
  basis: number;
};

const NO_FORECAST: Forecast = {
  growthPerTurn: null,
  growthPerMinute: null,
  turnsToCompact: null,
  turnsToCompactLow: null,
  turnsToCompactHigh: null,
  minutesToCompact: null,
  minutesToCompactLow: null,
  minutesToCompactHigh: null,
  compactSoonProbability: null,
  basis: 0,
};

/** The forecast as shown and acted on: turns and minutes only once the basis is wide enough. */
export function withMinimumBasis(
  forecast: Forecast,
  thresholdReached: boolean,
  minBasis = MIN_FORECAST_BASIS,
): Forecast {
  if (forecast.basis >= minBasis || thresholdReached) return forecast;
  return {
    ...NO_FORECAST,
    growthPerTurn: forecast.growthPerTurn,
    growthPerMinute: forecast.growthPerMinute,
    basis: forecast.basis,
  };
}

/** Growth per response between consecutive responses (a gap of n turns spread evenly). */
export function getGrowthSteps(responses: readonly ResponseRecord[]): number[] {
  const steps: number[] = [];
  for (let i = 1; i < responses.length; i++) {
    const turns = responses[i]!.turn - responses[i - 1]!.turn;
    if (turns <= 0) continue;
    const step = (responses[i]!.contextTokens - responses[i - 1]!.contextTokens) / turns;
    for (let t = 0; t < Math.min(turns, INTERVAL_WINDOW); t++) steps.push(step);
  }
  return steps;
}

/** A small seeded generator: the same session state always gives the same interval. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The 10th and 90th percentile of responses that complete before `remaining` tokens are used,
 * drawing growth steps from the session's own (and the profile's, weighted) at random.
 */
export function simulateTurnsLeft(
  remaining: number,
  own: readonly number[],
  profile: readonly number[] = [],
  seed = 1,
): { low: number; high: number; soon: number } | null {
  if (own.length === 0 && profile.length === 0) return null;
  // When even the biggest step repeated cannot get there, every future is "many".
  const biggest = Math.max(...own, ...profile);
  if (biggest * MAX_SIMULATED_TURNS < remaining)
    return { low: MAX_SIMULATED_TURNS - 1, high: MAX_SIMULATED_TURNS - 1, soon: 0 };
  const random = mulberry32(seed);
  const ownShare = profile.length === 0 ? 1 : own.length / (own.length + PROFILE_WEIGHT);
  const results: number[] = [];
  for (let run = 0; run < SIMULATIONS; run++) {
    let used = 0;
    let k = 0;
    while (used < remaining && k < MAX_SIMULATED_TURNS) {
      const pool = random() < ownShare ? own : profile;
      used += pool[Math.floor(random() * pool.length)]!;
      k++;
    }
    results.push(k - 1);
  }
  results.sort((a, b) => a - b);
  return {
    low: results[Math.floor(SIMULATIONS * 0.1)]!,
    high: results[Math.floor(SIMULATIONS * 0.9)]!,
    soon: results.filter((k) => k < SOON_HORIZON).length / SIMULATIONS,
  };
}

/**
 * Forecasts from the responses since the last compaction (oldest first).
 *
 * The central rate is the mean over the window, not the median: the jumps are what use the
 * window up.
 */
export function forecastCompaction(
  responses: readonly ResponseRecord[],
  compactThreshold: number,
  window = FORECAST_WINDOW,
  profile: readonly number[] = [],
): Forecast {
  const live = responses.filter((r) => r.contextTokens > 0);
  const recent = live.slice(-(window + 1));
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
  const minutesPerTurn = minutes !== null && turns > 0 ? minutes / turns : null;
  const remaining = compactThreshold - last.contextTokens;
  const forecast: Forecast = {
    ...NO_FORECAST,
    growthPerTurn: growthPerTurn === null ? null : Math.round(growthPerTurn),
    growthPerMinute: growthPerMinute === null ? null : Math.round(growthPerMinute),
    basis: recent.length,
  };
  if (remaining <= 0) {
    return {
      ...forecast,
      turnsToCompact: 0,
      turnsToCompactLow: 0,
      turnsToCompactHigh: 0,
      minutesToCompact: 0,
      minutesToCompactLow: 0,
      minutesToCompactHigh: 0,
      compactSoonProbability: 1,
    };
  }
  if (growthPerTurn !== null && growthPerTurn > 0) {
    // Responses k = 1, 2, … complete while last + k·g stays below the threshold.
    forecast.turnsToCompact = Math.max(0, Math.ceil(remaining / growthPerTurn) - 1);
  }
  if (growthPerMinute !== null && growthPerMinute > 0) {
    forecast.minutesToCompact = Math.round((remaining / growthPerMinute) * 10) / 10;
  }
  const steps = getGrowthSteps(live.slice(-(INTERVAL_WINDOW + 1)));
  const interval = simulateTurnsLeft(remaining, steps, profile, last.turn * 7919 + remaining);
  if (interval) forecast.compactSoonProbability = interval.soon;
  if (interval && forecast.turnsToCompact !== null) {
    // A mean rate misses that jumps bring compaction sooner: where the interval leans low,
    // its midpoint is the better central estimate (hit rate 51% → 55% leave-one-out).
    const midpoint = Math.round((interval.low + interval.high) / 2);
    forecast.turnsToCompact = Math.min(forecast.turnsToCompact, midpoint);
    // The interval holds the central estimate: both come from the same growth.
    const low = Math.min(interval.low, forecast.turnsToCompact);
    const high = Math.max(interval.high, forecast.turnsToCompact);
    forecast.turnsToCompactLow = low;
    forecast.turnsToCompactHigh = high >= MAX_SIMULATED_TURNS - 1 ? null : high;
    if (minutesPerTurn !== null) {
      const toMinutes = (n: number) => Math.round(n * minutesPerTurn * 10) / 10;
      forecast.minutesToCompactLow = toMinutes(low + 1);
      forecast.minutesToCompactHigh =
        forecast.turnsToCompactHigh === null ? null : toMinutes(forecast.turnsToCompactHigh + 1);
    }
  }
  return forecast;
}
