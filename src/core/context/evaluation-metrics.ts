/**
 * The figures the forecast is judged by, scored on a replayed session (turn and compaction
 * events in file order): is the threshold where compactions happened, how early L2 warned, how
 * often the turns-to-compact estimate hit, whether its 80% interval held the truth, and how
 * right "danger" was. Only compactions at the threshold count for the threshold and forecast;
 * idle and put-off ones say nothing about them.
 * @module
 */
import type { CompactionKind } from './compaction-kind.ts';
import type { Level } from './level.ts';
import type { CrashRisk } from './risk.ts';

export type MetricTurn = {
  kind: 'turn';
  turn: number;
  level: Level;
  risk: CrashRisk;
  /** Context as a share of the threshold, in percent. */
  percent: number;
  compactThreshold: number;
  turnsToCompact: number | null;
  turnsToCompactLow: number | null;
  turnsToCompactHigh: number | null;
};

export type MetricCompact = {
  kind: 'compact';
  trigger: 'auto' | 'manual';
  compactionKind: CompactionKind;
  preTokens: number | null;
  lastContextTokens: number | null;
};

export type MetricEvent = MetricTurn | MetricCompact;

/** A resolved threshold this close to [last context, preTokens] is consistent with it. */
export const THRESHOLD_TOLERANCE = 0.03;
/** Responses before each compaction the forecast is scored on. */
export const FORECAST_HORIZON = 10;

export type ForecastSample = {
  actual: number;
  forecast: number | null;
  low: number | null;
  high: number | null;
};

export type SessionMetrics = {
  thresholds: { consistent: number; total: number };
  /** Responses from the first L2 (or higher) of a window to its compaction; 0 when none warned. */
  l2Leads: number[];
  forecasts: ForecastSample[];
  /** Every response of a window that ended in an auto compaction (not idle): how far before it. */
  distances: DistanceSample[];
};

export type DistanceSample = {
  /** Responses that completed after this one before the compaction. */
  before: number;
  percent: number;
  turnsToCompact: number | null;
  danger: boolean;
};

/** Splits the events into windows, each ending at a compaction (or at the end). */
function windows(
  events: readonly MetricEvent[],
): Array<{ turns: MetricTurn[]; end: MetricCompact | null }> {
  const out: Array<{ turns: MetricTurn[]; end: MetricCompact | null }> = [];
  let turns: MetricTurn[] = [];
  for (const e of events) {
    if (e.kind === 'turn') turns.push(e);
    else {
      out.push({ turns, end: e });
      turns = [];
    }
  }
  out.push({ turns, end: null });
  return out;
}

export function scoreSession(events: readonly MetricEvent[]): SessionMetrics {
  const metrics: SessionMetrics = {
    thresholds: { consistent: 0, total: 0 },
    l2Leads: [],
    forecasts: [],
    distances: [],
  };
  for (const { turns, end } of windows(events)) {
    const last = turns[turns.length - 1];
    if (!end || !last || end.trigger !== 'auto' || end.compactionKind === 'idle') continue;
    for (const t of turns) {
      metrics.distances.push({
        before: last.turn - t.turn,
        percent: t.percent,
        turnsToCompact: t.turnsToCompact,
        danger: t.risk === 'danger',
      });
    }
    if (end.compactionKind !== 'threshold') continue;
    if (end.preTokens !== null && end.lastContextTokens !== null) {
      metrics.thresholds.total++;
      const lower = Math.min(end.lastContextTokens, end.preTokens) * (1 - THRESHOLD_TOLERANCE);
      const upper = end.preTokens * (1 + THRESHOLD_TOLERANCE);
      if (last.compactThreshold >= lower && last.compactThreshold <= upper)
        metrics.thresholds.consistent++;
    }
    const firstL2 = turns.find((t) => t.level === 'L2' || t.level === 'L3');
    metrics.l2Leads.push(firstL2 ? last.turn - firstL2.turn + 1 : 0);
    for (const t of turns.slice(-FORECAST_HORIZON)) {
      metrics.forecasts.push({
        actual: last.turn - t.turn,
        forecast: t.turnsToCompact,
        low: t.turnsToCompactLow,
        high: t.turnsToCompactHigh,
      });
    }
  }
  return metrics;
}

export type ForecastSummary = {
  samples: number;
  withForecast: number;
  /** |forecast − actual| ≤ max(1, 30% of actual). */
  hitRate: number | null;
  meanAbsoluteError: number | null;
  /** Share of samples whose actual lay inside [low, high]. */
  intervalCoverage: number | null;
  medianIntervalWidth: number | null;
};

const median = (xs: readonly number[]) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null;

export function isHit(sample: { actual: number; forecast: number | null }): boolean {
  if (sample.forecast === null) return false;
  return Math.abs(sample.forecast - sample.actual) <= Math.max(1, 0.3 * sample.actual);
}

export function summarizeForecasts(samples: readonly ForecastSample[]): ForecastSummary {
  const withForecast = samples.filter((s) => s.forecast !== null);
  const withInterval = samples.filter((s) => s.low !== null);
  const errors = withForecast.map((s) => Math.abs(s.forecast! - s.actual));
  return {
    samples: samples.length,
    withForecast: withForecast.length,
    hitRate: withForecast.length ? withForecast.filter(isHit).length / withForecast.length : null,
    meanAbsoluteError: errors.length ? errors.reduce((a, b) => a + b, 0) / errors.length : null,
    intervalCoverage: withInterval.length
      ? withInterval.filter((s) => s.actual >= s.low! && (s.high === null || s.actual <= s.high))
          .length / withInterval.length
      : null,
    medianIntervalWidth: median(
      withInterval.map((s) => (s.high === null ? Number.POSITIVE_INFINITY : s.high - s.low!)),
    ),
  };
}

/** The rows of the danger table: responses grouped by how far before an auto compaction they were. */
export const DISTANCE_BUCKETS = [
  [0, 3],
  [4, 7],
  [8, 9],
  [10, 11],
  [12, 14],
  [15, 20],
] as const;

export type DistanceBucket = {
  from: number;
  to: number;
  /** Inside the danger horizon (an auto compaction within the next 10 responses). */
  positive: boolean;
  responses: number;
  /** Share at ≥ 90% of the threshold. */
  nearThreshold: number | null;
  medianPercent: number | null;
  /** Quartiles (25/50/75%) of the estimated responses left. */
  forecastQuartiles: [number, number, number] | null;
  /** Share judged danger. */
  flagged: number | null;
};

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;

/**
 * Why danger cannot be both precise and complete: responses just inside the horizon look like
 * those just outside it. One row per DISTANCE_BUCKETS entry.
 */
export function summarizeDistances(
  samples: readonly DistanceSample[],
  horizon = FORECAST_HORIZON,
): DistanceBucket[] {
  return DISTANCE_BUCKETS.map(([from, to]) => {
    const rows = samples.filter((s) => s.before >= from && s.before <= to);
    const percents = rows.map((r) => r.percent).sort((a, b) => a - b);
    const forecasts = rows
      .map((r) => r.turnsToCompact)
      .filter((f): f is number => f !== null)
      .sort((a, b) => a - b);
    const share = (n: number) => (rows.length ? n / rows.length : null);
    return {
      from,
      to,
      positive: to < horizon,
      responses: rows.length,
      nearThreshold: share(rows.filter((r) => r.percent >= 90).length),
      medianPercent: percents.length ? quantile(percents, 0.5) : null,
      forecastQuartiles: forecasts.length
        ? [quantile(forecasts, 0.25), quantile(forecasts, 0.5), quantile(forecasts, 0.75)]
        : null,
      flagged: share(rows.filter((r) => r.danger).length),
    };
  });
}
