/** Replays transcripts and scores what the live view predicted against what happened. */
import {
  scoreForecast,
  mergeRiskScores,
  scoreRisk,
  type ForecastScore,
  type RiskScore,
} from '../../core/context/evaluate.ts';
import { replayTranscript, type ReplayEvent } from '../session/replay.ts';
import type { SessionLog } from '../session/session-log.ts';

export async function evaluateReplays(
  logs: readonly SessionLog[],
): Promise<{ risk: RiskScore; forecast: ForecastScore }> {
  const risks: RiskScore[] = [];
  const samples: ForecastScore['samples'] = [];
  for (const { path, agent } of logs) {
    const events: ReplayEvent[] = [];
    await replayTranscript(path, agent, {
      env: {},
      home: null,
      history: [],
      onEvent: (e) => events.push(e),
    });
    risks.push(scoreRisk(events));
    samples.push(...scoreForecast(events).samples);
  }
  return { risk: mergeRiskScores(risks), forecast: { samples } };
}
