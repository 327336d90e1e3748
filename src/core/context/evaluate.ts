/**
 * How well the live view predicted what happened: crash-risk accuracy and forecast error,
 * scored on a replay (turn and compaction events in file order).
 * @module
 */
import type { CrashRisk } from './risk.ts';

/** Responses ahead within which an auto compaction counts as "about to happen". */
export const EVALUATION_HORIZON = 10;

export type EvaluatedTurn = {
  kind: 'turn';
  turn: number;
  risk: CrashRisk;
  turnsToCompact: number | null;
};
export type EvaluatedCompact = {
  kind: 'compact';
  trigger: 'auto' | 'manual';
  /** An idle compaction is not exhaustion: turns before it are left out like a manual one's. */
  compactionKind?: string;
};
export type EvaluatedEvent = EvaluatedTurn | EvaluatedCompact | { kind: string };

export type RiskScore = {
  /** Turns scored (turns whose outcome is unknown or ambiguous are left out). */
  scored: number;
  truePositive: number;
  falsePositive: number;
  trueNegative: number;
  falseNegative: number;
};

export type ForecastScore = {
  /** One entry per (compaction, response among the last N before it). */
  samples: Array<{ actual: number; forecast: number | null }>;
};

type Outcome = 'exhaustion' | 'manual' | 'none';

/**
 * Labels every turn with what happened within the horizon: an auto compaction (positive), a
 * manual one (ambiguous: the user chose it), or nothing. The last turns of a transcript that
 * ends without a compaction have an unknown future and are left out.
 */
function labelTurns(
  events: readonly EvaluatedEvent[],
  horizon: number,
): Array<{ turn: EvaluatedTurn; outcome: Outcome | 'unknown' }> {
  const labelled: Array<{ turn: EvaluatedTurn; outcome: Outcome | 'unknown' }> = [];
  const turns: Array<{ turn: EvaluatedTurn; index: number }> = [];
  events.forEach((e, index) => {
    if (e.kind === 'turn') turns.push({ turn: e as EvaluatedTurn, index });
  });
  for (let t = 0; t < turns.length; t++) {
    const { turn, index } = turns[t]!;
    let outcome: Outcome | 'unknown' = 'none';
    let seen = 0;
    let i = index + 1;
    for (; i < events.length; i++) {
      const e = events[i]!;
      if (e.kind === 'compact') {
        const compact = e as EvaluatedCompact;
        outcome =
          compact.trigger === 'auto' && compact.compactionKind !== 'idle' ? 'exhaustion' : 'manual';
        break;
      }
      if (e.kind === 'turn' && ++seen > horizon - 1) break;
    }
    if (i >= events.length && outcome === 'none') outcome = 'unknown';
    labelled.push({ turn, outcome });
  }
  return labelled;
}

export function scoreRisk(
  events: readonly EvaluatedEvent[],
  horizon = EVALUATION_HORIZON,
): RiskScore {
  const score: RiskScore = {
    scored: 0,
    truePositive: 0,
    falsePositive: 0,
    trueNegative: 0,
    falseNegative: 0,
  };
  for (const { turn, outcome } of labelTurns(events, horizon)) {
    if (outcome === 'manual' || outcome === 'unknown') continue;
    score.scored++;
    const flagged = turn.risk === 'danger';
    const positive = outcome === 'exhaustion';
    if (flagged && positive) score.truePositive++;
    else if (flagged) score.falsePositive++;
    else if (positive) score.falseNegative++;
    else score.trueNegative++;
  }
  return score;
}

export function mergeRiskScores(scores: readonly RiskScore[]): RiskScore {
  return scores.reduce(
    (a, b) => ({
      scored: a.scored + b.scored,
      truePositive: a.truePositive + b.truePositive,
      falsePositive: a.falsePositive + b.falsePositive,
      trueNegative: a.trueNegative + b.trueNegative,
      falseNegative: a.falseNegative + b.falseNegative,
    }),
    { scored: 0, truePositive: 0, falsePositive: 0, trueNegative: 0, falseNegative: 0 },
  );
}

export function getAccuracy(score: RiskScore): {
  accuracy: number;
  precision: number;
  recall: number;
} {
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return {
    accuracy: ratio(score.truePositive + score.trueNegative, score.scored),
    precision: ratio(score.truePositive, score.truePositive + score.falsePositive),
    recall: ratio(score.truePositive, score.truePositive + score.falseNegative),
  };
}

/** Forecast vs. what happened over the last `window` responses before each auto compaction. */
export function scoreForecast(
  events: readonly EvaluatedEvent[],
  window = EVALUATION_HORIZON,
): ForecastScore {
  const samples: ForecastScore['samples'] = [];
  let sinceCompaction: EvaluatedTurn[] = [];
  for (const e of events) {
    if (e.kind === 'turn') sinceCompaction.push(e as EvaluatedTurn);
    else if (e.kind === 'compact') {
      if ((e as EvaluatedCompact).trigger === 'auto') {
        const before = sinceCompaction.slice(-window);
        const last = before[before.length - 1];
        for (const t of before)
          samples.push({ actual: last!.turn - t.turn, forecast: t.turnsToCompact });
      }
      sinceCompaction = [];
    }
  }
  return { samples };
}

export function summarizeForecast(score: ForecastScore): {
  samples: number;
  withForecast: number;
  meanAbsoluteError: number | null;
  medianAbsoluteError: number | null;
  meanError: number | null;
  withinTwo: number;
} {
  const errors = score.samples
    .filter((s) => s.forecast !== null)
    .map((s) => s.forecast! - s.actual);
  const abs = errors.map(Math.abs).sort((a, b) => a - b);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return {
    samples: score.samples.length,
    withForecast: errors.length,
    meanAbsoluteError: mean(abs),
    medianAbsoluteError: abs.length ? abs[Math.floor(abs.length / 2)]! : null,
    meanError: mean(errors),
    withinTwo: abs.filter((x) => x <= 2).length,
  };
}
