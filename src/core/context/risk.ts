/**
 * Crash risk (docs/specification.md, "Signals and crash risk"): safe / warning / danger with the factors that decided it.
 *
 * The specification counts signals in a warning and a danger zone (2+ danger → danger; 1 danger or 3+
 * warnings → warning). Counting alone would call a session at 99% of its compaction threshold
 * merely "warning", so the two context signals — occupancy of the auto-compact threshold and
 * the forecast turns to compaction — are decisive on their own; the rest keep the specified rule.
 * @module
 */

export type CrashRisk = 'safe' | 'warning' | 'danger';

export type RiskZone = {
  /** Fraction (0–1) of the auto-compact threshold in use. Decisive. */
  compactUsage: number;
  /** Forecast further responses before auto-compaction, at most. Decisive from forecastMinUsage on. */
  turnsToCompact: number;
  /** The forecast only counts from this usage on: early in a window one big read skews the rate. */
  forecastMinUsage: number;
  /** Decisive when this share of simulated futures compacts within 10 responses… */
  soonProbability: number;
  /** …from this usage on. */
  soonMinUsage: number;
  messageCount: number;
  sessionDurationMs: number;
  toolCallsSinceCheckpoint: number;
  toolFailureRate: number;
  consecutiveToolFailures: number;
};

export type RiskThresholds = { warning: RiskZone; danger: RiskZone };

/** Tool failure rate is only meaningful over this many calls. */
const MIN_CALLS_FOR_FAILURE_RATE = 10;

/** Tuned for Claude Code sessions, which run far longer than the chats the specification assumed. */
export const DEFAULT_RISK_THRESHOLDS: RiskThresholds = {
  warning: {
    compactUsage: 0.7,
    turnsToCompact: 20,
    forecastMinUsage: 0.5,
    soonProbability: 0.3,
    soonMinUsage: 0.7,
    messageCount: 300,
    sessionDurationMs: 3 * 60 * 60 * 1000,
    toolCallsSinceCheckpoint: 25,
    toolFailureRate: 0.15,
    consecutiveToolFailures: 3,
  },
  danger: {
    compactUsage: 0.95,
    // Chosen leave-one-out on 57 real sessions (docs/forecast.md): precision up from 69%.
    turnsToCompact: 10,
    forecastMinUsage: 0.93,
    soonProbability: 0.7,
    soonMinUsage: 0.9,
    messageCount: 500,
    sessionDurationMs: 6 * 60 * 60 * 1000,
    toolCallsSinceCheckpoint: 50,
    toolFailureRate: 0.3,
    consecutiveToolFailures: 5,
  },
};

export type RiskInput = {
  compactUsage: number;
  turnsToCompact: number | null;
  /** Share of the forecast's simulated futures that compact within 10 responses. */
  compactSoonProbability?: number | null;
  messageCount: number;
  sessionDurationMs: number;
  toolCallCount: number;
  toolCallsSinceCheckpoint: number;
  toolFailureRate: number;
  consecutiveToolFailures: number;
  /** A "Prompt is too long" failure in the main chain since the last compaction. */
  contextLimitHit: boolean;
};

export type RiskAssessment = { risk: CrashRisk; riskFactors: string[] };

// Floor, so 94.9% never reads as the 95% it has not reached.
const pct = (fraction: number) => `${Math.floor(fraction * 100 + 1e-9)}%`;
const hours = (ms: number) => `${Math.round((ms / 3_600_000) * 10) / 10}h`;

type Check = { exceeds: (zone: RiskZone) => boolean; describe: (zone: RiskZone) => string };

function secondaryChecks(input: RiskInput): Check[] {
  const rateCounts = input.toolCallCount >= MIN_CALLS_FOR_FAILURE_RATE;
  return [
    {
      exceeds: (z) => input.messageCount >= z.messageCount,
      describe: (z) => `${input.messageCount} messages (≥ ${z.messageCount})`,
    },
    {
      exceeds: (z) => input.sessionDurationMs >= z.sessionDurationMs,
      describe: (z) =>
        `session running ${hours(input.sessionDurationMs)} (≥ ${hours(z.sessionDurationMs)})`,
    },
    {
      exceeds: (z) => input.toolCallsSinceCheckpoint >= z.toolCallsSinceCheckpoint,
      describe: (z) =>
        `${input.toolCallsSinceCheckpoint} tool calls since the last checkpoint (≥ ${z.toolCallsSinceCheckpoint})`,
    },
    {
      exceeds: (z) => rateCounts && input.toolFailureRate >= z.toolFailureRate,
      describe: (z) =>
        `tool failure rate ${pct(input.toolFailureRate)} (≥ ${pct(z.toolFailureRate)})`,
    },
    {
      exceeds: (z) => input.consecutiveToolFailures >= z.consecutiveToolFailures,
      describe: (z) =>
        `${input.consecutiveToolFailures} tool failures in a row (≥ ${z.consecutiveToolFailures})`,
    },
  ];
}

export function assessCrashRisk(
  input: RiskInput,
  thresholds: RiskThresholds = DEFAULT_RISK_THRESHOLDS,
): RiskAssessment {
  const { warning, danger } = thresholds;
  const factors: string[] = [];
  let primary: CrashRisk = 'safe';
  const raise = (to: CrashRisk) => {
    if (to === 'danger' || (to === 'warning' && primary === 'safe')) primary = to;
  };

  if (input.contextLimitHit) {
    factors.push('the context limit was hit ("Prompt is too long")');
    raise('danger');
  }
  if (input.compactUsage >= danger.compactUsage) {
    factors.push(
      `context at ${pct(input.compactUsage)} of the auto-compact threshold (danger ≥ ${pct(danger.compactUsage)})`,
    );
    raise('danger');
  } else if (input.compactUsage >= warning.compactUsage) {
    factors.push(
      `context at ${pct(input.compactUsage)} of the auto-compact threshold (warning ≥ ${pct(warning.compactUsage)})`,
    );
    raise('warning');
  }
  const turns = input.turnsToCompact;
  if (
    turns !== null &&
    turns <= danger.turnsToCompact &&
    input.compactUsage >= danger.forecastMinUsage
  ) {
    factors.push(
      `auto-compaction forecast in ${turns} response${turns === 1 ? '' : 's'} (danger ≤ ${danger.turnsToCompact})`,
    );
    raise('danger');
  } else if (
    turns !== null &&
    turns <= warning.turnsToCompact &&
    input.compactUsage >= warning.forecastMinUsage
  ) {
    factors.push(
      `auto-compaction forecast in ${turns} response${turns === 1 ? '' : 's'} (warning ≤ ${warning.turnsToCompact})`,
    );
    raise('warning');
  }

  const soon = input.compactSoonProbability ?? null;
  if (
    soon !== null &&
    (primary as CrashRisk) !== 'danger' &&
    soon >= danger.soonProbability &&
    input.compactUsage >= danger.soonMinUsage
  ) {
    factors.push(
      `${Math.round(soon * 100)}% of likely futures compact within 10 responses (danger ≥ ${Math.round(danger.soonProbability * 100)}%)`,
    );
    raise('danger');
  } else if (
    soon !== null &&
    (primary as CrashRisk) === 'safe' &&
    soon >= warning.soonProbability &&
    input.compactUsage >= warning.soonMinUsage
  ) {
    factors.push(
      `${Math.round(soon * 100)}% of likely futures compact within 10 responses (warning ≥ ${Math.round(warning.soonProbability * 100)}%)`,
    );
    raise('warning');
  }

  let dangerCount = 0;
  let warningCount = 0;
  for (const check of secondaryChecks(input)) {
    if (check.exceeds(danger)) {
      dangerCount++;
      warningCount++;
      factors.push(check.describe(danger));
    } else if (check.exceeds(warning)) {
      warningCount++;
      factors.push(check.describe(warning));
    }
  }
  // Long sessions and many unsaved tool calls say how much a crash would cost, not that one is
  // near: on their own they warn; with the context already near its threshold they are danger.
  let secondary: CrashRisk = 'safe';
  if (dangerCount >= 2)
    secondary = input.compactUsage >= danger.soonMinUsage ? 'danger' : 'warning';
  else if (dangerCount >= 1 || warningCount >= 3) secondary = 'warning';
  raise(secondary);
  return { risk: primary, riskFactors: factors };
}
