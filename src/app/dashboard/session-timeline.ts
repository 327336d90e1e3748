/**
 * A session's timeline for the dashboard: the context of every response against the threshold
 * the hooks would have resolved then (the replay of app/session/replay.ts), its compactions, the
 * checkpoints shim took at the responses they reflect, the restores into and out of it, and the
 * forecast from the newest response (none once the session has ended). Kept in memory per
 * transcript size and mtime: a 20 MB transcript is replayed once per change, not once per view.
 * @module
 */
import { statSync } from 'node:fs';
import { DEFAULT_LEVEL_THRESHOLDS, type LevelThresholds } from '../../core/context/level.ts';
import type { CompactionKind } from '../../core/context/compaction-kind.ts';
import type { TimelineRestore } from '../../store/ports/dashboard.ts';
import { loadConfig } from '../../store/config/config.ts';
import { historyMode } from '../session/assess-live-session.ts';
import type { SessionLog } from '../session/session-log.ts';
import { withStore } from '../open-store.ts';
import { replayTranscript } from '../session/replay.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type TimelinePoint = {
  turn: number;
  /** The transcript line the response ends on. */
  line: number;
  at: number | null;
  context: number;
  threshold: number;
  percent: number;
  level: string;
  /** Tool calls and failures whose results arrived since the previous response. */
  tools: number;
  failures: number;
};

export type TimelineCompaction = {
  line: number;
  /** Index of the last response before it (-1: before any). */
  after: number;
  trigger: 'auto' | 'manual';
  kind: CompactionKind;
  preTokens: number | null;
  /** The context of the first response after it. */
  postTokens: number | null;
};

export type TimelineCheckpoint = {
  id: string;
  number: number;
  trigger: string;
  createdAt: string;
  line: number | null;
  /** Index of the response it reflects (the last at or before its line); null when unplaced. */
  at: number | null;
  restoredAt: string | null;
};

export type SessionTimeline = {
  sessionId: string;
  project: string | null;
  model: string | null;
  cliVersion: string | null;
  levels: LevelThresholds;
  points: TimelinePoint[];
  compactions: TimelineCompaction[];
  checkpoints: TimelineCheckpoint[];
  restores: TimelineRestore[];
  /** From the newest response: responses until compaction, with the 80% range. */
  forecast: { turns: number | null; low: number | null; high: number | null } | null;
};

const cache = new Map<
  string,
  { stamp: string; timeline: Omit<SessionTimeline, 'checkpoints' | 'restores'> }
>();
const CACHED_TIMELINES = 8;

/** The last index whose line is at or before `line` (-1 when none). */
function indexAtLine(points: readonly TimelinePoint[], line: number): number {
  let lo = 0;
  let hi = points.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.line <= line) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

async function replayForTimeline(
  { path, agent }: SessionLog,
  home: string,
  env: Env,
): Promise<Omit<SessionTimeline, 'checkpoints' | 'restores'>> {
  const config = await loadConfig(home, { lenient: true, projectRoot: null });
  const points: TimelinePoint[] = [];
  const compactions: TimelineCompaction[] = [];
  let forecast: SessionTimeline['forecast'] = null;
  let tools = 0;
  let failures = 0;
  const state = await replayTranscript(path, agent, {
    env,
    home,
    history: historyMode(config.learnFromHistory),
    risk: config.risk,
    levels: config.levels,
    onEvent: (event, detail) => {
      if (event.kind === 'compact') {
        compactions.push({
          line: event.line,
          after: points.length - 1,
          trigger: event.trigger,
          kind: event.compactionKind,
          preTokens: event.preTokens,
          postTokens: null,
        });
        return;
      }
      const calls = detail?.toolCalls ?? tools;
      const failed = detail?.toolFailures ?? failures;
      points.push({
        turn: event.turn,
        line: event.line,
        at: detail?.at ?? null,
        context: event.contextTokens,
        threshold: event.compactThreshold,
        percent: event.percent,
        level: event.level,
        tools: Math.max(0, calls - tools),
        failures: Math.max(0, failed - failures),
      });
      tools = calls;
      failures = failed;
      forecast = {
        turns: event.turnsToCompact,
        low: event.turnsToCompactLow,
        high: event.turnsToCompactHigh,
      };
    },
  });
  for (const c of compactions) c.postTokens = points[c.after + 1]?.context ?? null;
  return {
    sessionId: state.sessionId ?? '',
    project: state.cwd,
    model: state.model,
    cliVersion: state.cliVersion,
    levels: config.levels ?? DEFAULT_LEVEL_THRESHOLDS,
    points,
    compactions,
    forecast,
  };
}

async function replayed(
  log: SessionLog,
  home: string,
  env: Env,
): Promise<Omit<SessionTimeline, 'checkpoints' | 'restores'>> {
  const { path } = log;
  const stat = statSync(path);
  const stamp = `${stat.size}:${stat.mtimeMs}`;
  let found = cache.get(path);
  if (found?.stamp !== stamp) {
    found = { stamp, timeline: await replayForTimeline(log, home, env) };
    cache.delete(path);
    cache.set(path, found);
    while (cache.size > CACHED_TIMELINES) cache.delete(cache.keys().next().value!);
  }
  return found.timeline;
}

/** A session whose transcript is gone: no responses to draw, what its newest checkpoint says. */
async function storedOnly(
  home: string,
  sessionId: string,
): Promise<Omit<SessionTimeline, 'checkpoints' | 'restores'>> {
  const config = await loadConfig(home, { lenient: true, projectRoot: null });
  const latest = await withStore(home, (store) => store.checkpoints.getMostRecent(sessionId));
  return {
    sessionId,
    project: latest?.source.cwd ?? null,
    model: latest?.source.model ?? null,
    cliVersion: latest?.source.cliVersion ?? null,
    levels: config.levels ?? DEFAULT_LEVEL_THRESHOLDS,
    points: [],
    compactions: [],
    forecast: null,
  };
}

export async function buildSessionTimeline(request: {
  home: string;
  env: Env;
  sessionId: string;
  /** null: the log is gone; the timeline is what the store kept (its checkpoints). */
  log: SessionLog | null;
}): Promise<SessionTimeline> {
  const { home, env, log } = request;
  const base =
    log === null ? await storedOnly(home, request.sessionId) : await replayed(log, home, env);
  const { checkpoints, restores, ended } = await withStore(home, (store) => ({
    checkpoints: store.dashboard.listTimelineCheckpoints(request.sessionId),
    restores: store.dashboard.listRestores(request.sessionId),
    ended: Boolean(store.sessions.get(request.sessionId)?.endedAt),
  }));
  return {
    ...base,
    // A session that has ended will not reach another compaction: nothing to forecast.
    forecast: ended ? null : base.forecast,
    sessionId: request.sessionId,
    checkpoints: checkpoints.map((c) => ({
      ...c,
      at:
        c.line === null || base.points.length === 0
          ? null
          : Math.max(0, indexAtLine(base.points, c.line)),
    })),
    restores,
  };
}
