import { replayTranscript, type ReplayEvent } from '../../app/session/replay.ts';
import { historyMode } from '../../app/session/assess-live-session.ts';
import {
  getAccuracy,
  scoreForecast,
  scoreRisk,
  summarizeForecast,
  EVALUATION_HORIZON,
} from '../../core/context/evaluate.ts';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError } from '../../core/errors.ts';
import { loadConfig } from '../../store/config/config.ts';
import { warnConfigProblems } from '../format/config-warning.ts';
import { getShimHome } from '../../store/home/home.ts';
import { REPLAY_HEADER, renderReplayLine } from '../format/replay-text.ts';
import { detectLogAgent, readHead } from '../../app/session/session-log.ts';
import type { Agents } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';

const FLUSH_EVERY = 256;

/** A FIFO, socket or device would block the read (or never end): only regular files are replayed. */
function assertTranscriptFile(path: string): void {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new AppError(
      'TRANSCRIPT_NOT_FOUND',
      `no transcript at ${path}`,
      'pass the path of a session .jsonl file',
    );
  }
  if (!stat.isFile())
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `${path} is ${stat.isDirectory() ? 'a directory' : stat.isFIFO() ? 'a named pipe' : 'not a regular file'}, not a transcript`,
      'pass the path of a session .jsonl file (copy a stream to a file first)',
    );
}

export async function runReplay(
  agents: Agents,
  transcript: string,
  options: { json?: boolean; history: boolean; evaluate?: boolean; agent?: AgentId },
): Promise<void> {
  assertTranscriptFile(resolve(transcript));
  const agent = await detectLogAgent(resolve(transcript), options.agent, agents);
  const home = getShimHome();
  const config = await loadConfig(home, { lenient: true });
  warnConfigProblems(config);
  const history = historyMode(options.history ?? config.learnFromHistory);
  const events: ReplayEvent[] = [];
  let buffer: string[] = options.json ? [] : [REPLAY_HEADER];
  const flush = () => {
    if (buffer.length) process.stdout.write(`${buffer.join('\n')}\n`);
    buffer = [];
  };
  // Judged with the agent's environment and settings as the session's hooks recorded them.
  const state = await replayTranscript(resolve(transcript), agent, {
    env: process.env,
    home,
    history,
    risk: config.risk,
    levels: config.levels,
    onEvent: (event, detail) => {
      events.push(event);
      buffer.push(options.json ? JSON.stringify(event) : renderReplayLine(event, detail));
      if (buffer.length >= FLUSH_EVERY) flush();
    },
  });
  const empty = state.sessionId === null && state.turns === 0 && state.promptCount === 0;
  // A file named like the agent's logs but holding none of its records is no session log.
  if (empty && !agent.sessions.sniff(readHead(resolve(transcript)).records)) {
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `${transcript} is not a session log (none of its ${state.parse.lines} lines is ${agent.sessions.recordName})`,
      `pass a session file: ${agent.sessions.example}`,
    );
  }
  if (options.evaluate) {
    const risk = scoreRisk(events);
    const forecast = summarizeForecast(scoreForecast(events));
    const rates = getAccuracy(risk);
    if (options.json)
      buffer.push(
        JSON.stringify({
          kind: 'evaluation',
          horizon: EVALUATION_HORIZON,
          risk,
          ...rates,
          forecast,
        }),
      );
    else {
      buffer.push('');
      buffer.push(
        `risk: ${risk.scored} responses scored · accuracy ${(rates.accuracy * 100).toFixed(1)}% · precision ${(rates.precision * 100).toFixed(1)}% · recall ${(rates.recall * 100).toFixed(1)}% (danger within ${EVALUATION_HORIZON} responses of an auto compaction)`,
      );
      buffer.push(
        forecast.samples === 0
          ? 'forecast: no auto compaction to score against'
          : `forecast: ${forecast.samples} responses before auto compactions · mean error ${forecast.meanAbsoluteError?.toFixed(2)} responses · median ${forecast.medianAbsoluteError} · within ±2: ${forecast.withinTwo}/${forecast.withForecast}`,
      );
    }
  }
  if (!options.json && state.parse.badLines + state.parse.oversizedLines > 0) {
    buffer.push(
      `note: skipped ${state.parse.badLines} unreadable and ${state.parse.oversizedLines} oversized lines`,
    );
  }
  flush();
}
