/**
 * Leave-one-out evaluation of the live view on real transcripts: each session is replayed with
 * only what the others teach (their compactions as threshold history, their growth steps as the
 * forecast's profile), so no figure comes from tuning on the session it scores. A baseline with
 * one constant threshold runs beside it.
 * @module
 */
import { getSessionSamples, type CompactSample } from '../../core/context/threshold.ts';
import {
  getAccuracy,
  mergeRiskScores,
  scoreRisk,
  type RiskScore,
} from '../../core/context/evaluate.ts';
import {
  scoreSession,
  summarizeDistances,
  summarizeForecasts,
  type DistanceBucket,
  type DistanceSample,
  type ForecastSample,
  type ForecastSummary,
  type MetricEvent,
} from '../../core/context/evaluation-metrics.ts';
import { getGrowthSteps } from '../../core/context/forecast.ts';
import type { ResponseRecord } from '../../core/session.ts';
import { STEPS_PER_SESSION } from '../../store/estimates/growth-profile.ts';
import type { SessionLog } from '../session/session-log.ts';
import { replayTranscript, type ReplayEvent } from '../session/replay.ts';

export type EvaluationReport = {
  sessions: number;
  autoCompactions: number;
  thresholdConsistency: { consistent: number; total: number; share: number | null };
  l2Lead: { median: number | null; warnedShare: number | null; compactions: number };
  forecast: ForecastSummary;
  danger: RiskScore & { precision: number; recall: number; accuracy: number };
  /** Responses by distance to the auto compaction that followed them (docs/forecast.md). */
  dangerByDistance: DistanceBucket[];
};

export type EvaluationOptions = {
  /** Judge every response against this threshold (the baseline). */
  fixedThreshold?: number;
  /** Leave the other sessions' growth steps out of the interval (live, they are in). */
  withoutProfile?: boolean;
  onProgress?: (done: number, total: number) => void;
};

type Learned = { samples: CompactSample[]; steps: number[] };

/**
 * What one session teaches the others: its compactions, and each window's newest growth steps
 * as the live profile keeps them (store/estimates/growth-profile.ts).
 */
function learnFrom({ path, agent }: SessionLog): Learned {
  const steps: number[] = [];
  let window: ResponseRecord[] = [];
  const keep = () => steps.push(...getGrowthSteps(window).slice(-STEPS_PER_SESSION));
  const state = agent.log.read(path, null, {
    finalize: true,
    listener: {
      onResponse: (response) => window.push(response),
      onCompaction: () => {
        keep();
        window = [];
      },
    },
  }).cursor.state;
  keep();
  return { samples: getSessionSamples(state), steps };
}

const median = (xs: readonly number[]) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null;

export async function evaluateLeaveOneOut(
  logs: readonly SessionLog[],
  options: EvaluationOptions = {},
): Promise<EvaluationReport> {
  const learned = logs.map(learnFrom);
  const risks: RiskScore[] = [];
  const forecasts: ForecastSample[] = [];
  const leads: number[] = [];
  const distances: DistanceSample[] = [];
  let consistent = 0;
  let total = 0;
  let autoCompactions = 0;
  for (let i = 0; i < logs.length; i++) {
    const others = learned.filter((_, j) => j !== i);
    const events: ReplayEvent[] = [];
    await replayTranscript(logs[i]!.path, logs[i]!.agent, {
      env: {},
      home: null,
      history: others.flatMap((l) => l.samples),
      ...(options.fixedThreshold !== undefined ? { fixedThreshold: options.fixedThreshold } : {}),
      ...(options.withoutProfile ? {} : { growthProfile: others.flatMap((l) => l.steps) }),
      onEvent: (e) => events.push(e),
    });
    autoCompactions += events.filter((e) => e.kind === 'compact' && e.trigger === 'auto').length;
    risks.push(scoreRisk(events));
    const metrics = scoreSession(events as MetricEvent[]);
    consistent += metrics.thresholds.consistent;
    total += metrics.thresholds.total;
    leads.push(...metrics.l2Leads);
    forecasts.push(...metrics.forecasts);
    distances.push(...metrics.distances);
    options.onProgress?.(i + 1, logs.length);
  }
  const risk = mergeRiskScores(risks);
  return {
    sessions: logs.length,
    autoCompactions,
    thresholdConsistency: { consistent, total, share: total ? consistent / total : null },
    l2Lead: {
      median: median(leads),
      warnedShare: leads.length ? leads.filter((l) => l > 0).length / leads.length : null,
      compactions: leads.length,
    },
    forecast: summarizeForecasts(forecasts),
    danger: { ...risk, ...getAccuracy(risk) },
    dangerByDistance: summarizeDistances(distances),
  };
}
