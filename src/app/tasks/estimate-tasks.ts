/**
 * "Will the open tasks fit?" (EST-001/002): the tokens finishing a session's open tasks will take,
 * learned from the user's other sessions, against the context left before the next compaction
 * and the room a fresh session has.
 * @module
 */
import { formatThousands as k } from '../../core/format-tokens.ts';
import type { Agents } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { randomUUID } from 'node:crypto';
import { getContextRoom } from '../../core/context/context-room.ts';
import { estimateTaskTokens } from '../../core/plan/task-estimate.ts';
import { openCommandStore } from '../open-command-store.ts';
import type { TaskEstimates } from '../../store/ports/task-estimates.ts';
import { loadConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { assessLiveSession } from '../session/assess-live-session.ts';
import { findSessionLog } from '../session/session-log.ts';
import { historyLogs, learnTaskHistory } from './task-history.ts';
import { readTaskTimeline } from './task-points.ts';

export type EstimateRequest = {
  transcript?: string;
  sessionId?: string;
  /** The session as it was at this line (1-based); the whole transcript without it. */
  untilLine?: number;
  /** Where the sessions to learn from are; the session's agent's own sessions by default. */
  historyDir?: string;
  /** Whose log it is (`--agent`). */
  agent?: AgentId | null;
  agents: Agents;
  cwd: string;
  env: Env;
  home: string;
  now: number;
  /** Told before a long read of the history. */
  onProgress?: (message: string) => void;
};

export type Verdict = 'fits' | 'tight' | 'wont-fit' | 'no-open-tasks';

export type TaskFitEstimate = {
  transcriptPath: string;
  line: number;
  openTasks: number;
  open: string[];
  tokens: number | null;
  low: number | null;
  high: number | null;
  /** Before this session's next compaction. */
  remainingContext: number;
  /** What a fresh session has for work. */
  freshContext: number;
  fits: boolean;
  verdict: Verdict;
  reason: string;
  learnedFrom: { sessions: number; points: number };
};

export async function estimateOpenTasks(request: EstimateRequest): Promise<TaskFitEstimate> {
  const { path, agent } = await findSessionLog(request, request.agents);
  const timeline = await readTaskTimeline(
    path,
    agent,
    request.untilLine !== undefined ? { untilLine: request.untilLine } : {},
  );
  const history = await learnTaskHistory({
    ...(await historyLogs({
      agents: request.agents,
      only: [agent],
      env: request.env,
      ...(request.historyDir !== undefined ? { dir: request.historyDir } : {}),
    })),
    home: request.home,
    now: request.now,
    exclude: path,
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  });
  const { model } = history;
  const { state, now } = timeline;
  const config = await loadConfig(request.home, { lenient: true, projectRoot: null });
  const assessment = assessLiveSession(agent, state, {
    home: request.home,
    env: request.env,
    now: state.lastActivityAt ?? request.now,
    config,
    history: false,
  });
  const { remaining, fresh } = getContextRoom(assessment, state.responses[0]?.contextTokens);
  const common = {
    transcriptPath: path,
    line: now.line,
    openTasks: now.open.length,
    open: now.open,
    remainingContext: remaining,
    freshContext: fresh,
    learnedFrom: { sessions: history.sessions, points: history.points.length },
  };
  if (now.open.length === 0) {
    return {
      ...common,
      tokens: null,
      low: null,
      high: null,
      fits: true,
      verdict: 'no-open-tasks',
      reason: 'the session has no open tasks',
    };
  }
  const estimate = estimateTaskTokens(model, {
    openTasks: now.open.length,
    growthPerResponse: now.growthPerResponse,
    ...(state.cwd === null ? {} : { project: state.cwd }),
  });
  recordEstimate(request.home, {
    id: randomUUID(),
    createdAt: new Date(request.now).toISOString(),
    transcriptPath: path,
    sessionId: state.sessionId,
    line: now.line,
    taskKeys: now.keys,
    spentBefore: now.spent,
    ...estimate,
  });
  const fits = estimate.tokens <= remaining;
  const verdict: Verdict = !fits ? 'wont-fit' : estimate.high <= remaining ? 'fits' : 'tight';
  const reason =
    verdict === 'fits'
      ? `even the high end (${k(estimate.high)}) fits in the ${k(remaining)} left`
      : verdict === 'tight'
        ? `~${k(estimate.tokens)} fits in the ${k(remaining)} left, the high end (${k(estimate.high)}) does not`
        : estimate.tokens <= fresh
          ? `~${k(estimate.tokens)} is more than the ${k(remaining)} left; a fresh session has ${k(fresh)}`
          : `~${k(estimate.tokens)} is more than a fresh session's ${k(fresh)}: shard the work`;
  return { ...common, ...estimate, fits, verdict, reason };
}

/** Kept so its actual can be recorded beside it (`shim estimate --accuracy`); best effort. */
function recordEstimate(home: string, estimate: Parameters<TaskEstimates['record']>[0]) {
  try {
    const store = openCommandStore(home);
    try {
      store.taskEstimates.record(estimate);
    } finally {
      store.close();
    }
  } catch {
    // an estimate not kept is only missing from --accuracy
  }
}
