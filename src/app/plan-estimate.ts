/**
 * A plan or spec file sized against the context (EST-001/003, SHD-002): its open steps' tokens,
 * the room in the current session and in a fresh one, and — past 60% of a fresh session — the
 * shards it splits into.
 * @module
 */
import { formatThousands as k } from '../core/format-tokens.ts';
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { findProjectRoot } from '../capture/project.ts';
import { getProjectsDir } from '../agents/claude/sessions.ts';
import { AppError } from '../core/errors.ts';
import { mentionedFiles, parsePlan, type Plan } from '../core/plan.ts';
import { sizePlan, type SizedStep } from '../core/plan-size.ts';
import { createSessionState, type SessionState } from '../core/session.ts';
import { SHARD_SHARE, shardPlan, type Shard } from '../core/shard-plan.ts';
import { DEFAULT_GROWTH, type TaskEstimate } from '../core/task-estimate.ts';
import { getContextRoom } from '../core/context-room.ts';
import { loadConfig } from '../store/config.ts';
import type { Env } from '../store/home.ts';
import { assessLiveSession } from './assess-live-session.ts';
import { loadSessionState, resolveTranscriptPath } from './read-session.ts';
import { learnTaskHistory } from './task-history.ts';

export type PlanVerdict = 'fits' | 'fresh-session' | 'shard' | 'done';

export type PlanEstimate = {
  planPath: string;
  plan: Plan;
  steps: SizedStep[];
  openSteps: number;
  sharedTokens: number;
  total: TaskEstimate;
  /** Left before compaction in this directory's latest session; null without one. */
  remainingContext: number | null;
  freshContext: number;
  /** What one shard may take: 60% of a fresh session. */
  budget: number;
  verdict: PlanVerdict;
  reason: string;
  shards: Shard[];
  learnedFrom: { sessions: number; points: number };
};

export type PlanEstimateRequest = {
  planPath: string;
  cwd: string;
  env: Env;
  home: string;
  now: number;
  historyDir?: string;
  /** Tokens a shard may take instead of 60% of a fresh session. */
  budget?: number;
  onProgress?: (message: string) => void;
};

function readPlan(path: string): string {
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    return readFileSync(path, 'utf8');
  } catch {
    throw new AppError(
      'USAGE',
      `plan not found: ${path}`,
      'pass a markdown plan or spec file (headings, checklists or numbered steps)',
    );
  }
}

/** Bytes of the files a text names that exist inside `root` (nothing outside it is read). */
export function fileBytesUnder(root: string): (text: string) => number {
  const sizes = new Map<string, number>();
  return (text) =>
    mentionedFiles(text).reduce((total, name) => {
      const path = resolve(root, name);
      const inside = relative(root, path);
      if (inside.startsWith('..') || isAbsolute(inside)) return total;
      if (!sizes.has(path)) {
        let bytes = 0;
        try {
          const stat = statSync(path);
          if (stat.isFile()) bytes = stat.size;
        } catch {
          // a file the plan will create
        }
        sizes.set(path, bytes);
      }
      return total + sizes.get(path)!;
    }, 0);
}

function latestSession(request: PlanEstimateRequest): Promise<SessionState | null> {
  try {
    const path = resolveTranscriptPath({ cwd: request.cwd, env: request.env });
    return loadSessionState(path, request.home).catch(() => null);
  } catch {
    return Promise.resolve(null);
  }
}

export async function estimatePlan(request: PlanEstimateRequest): Promise<PlanEstimate> {
  const planPath = resolve(request.cwd, request.planPath);
  const plan = parsePlan(readPlan(planPath));
  const history = await learnTaskHistory({
    dir: request.historyDir ?? getProjectsDir(request.env),
    home: request.home,
    now: request.now,
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  });
  const session = await latestSession(request);
  const size = sizePlan({
    plan,
    model: history.model,
    growthPerResponse: history.medianGrowth ?? DEFAULT_GROWTH,
    fileBytes: fileBytesUnder(findProjectRoot(dirname(planPath))),
    project: session?.cwd ?? request.cwd,
  });
  const config = await loadConfig(request.home, { lenient: true, projectRoot: null });
  const assessment = assessLiveSession(session ?? createSessionState(), {
    home: request.home,
    env: request.env,
    now: request.now,
    config,
    history: false,
  });
  const room = getContextRoom(assessment, session?.responses[0]?.contextTokens);
  const remaining = session ? room.remaining : null;
  const { fresh } = room;
  const budget = request.budget ?? Math.floor(fresh * SHARD_SHARE);
  const openSteps = plan.steps.filter((s) => s.done !== true).length;
  const tokens = size.total.tokens;
  const verdict: PlanVerdict =
    openSteps === 0
      ? 'done'
      : tokens > budget
        ? 'shard'
        : remaining !== null && tokens <= remaining
          ? 'fits'
          : 'fresh-session';
  const shards =
    verdict === 'shard'
      ? shardPlan({
          plan,
          tokensOf: (step) => size.steps.find((s) => s.step === step)!.tokens,
          sharedTokens: size.sharedTokens,
          budget,
        })
      : [];
  const reason = {
    done: 'every step is ticked',
    shard: `~${k(tokens)} is more than ${Math.round(SHARD_SHARE * 100)}% of a fresh session (${k(budget)} of ${k(fresh)}): ${shards.length} shards`,
    fits: `~${k(tokens)} fits in the ${k(remaining ?? 0)} left in this directory's session`,
    'fresh-session':
      remaining === null
        ? `~${k(tokens)} fits in a fresh session (${k(fresh)})`
        : `~${k(tokens)} is more than the ${k(remaining)} left: start a fresh session (${k(fresh)})`,
  }[verdict];
  return {
    planPath,
    plan,
    steps: size.steps,
    openSteps,
    sharedTokens: size.sharedTokens,
    total: size.total,
    remainingContext: remaining,
    freshContext: fresh,
    budget,
    verdict,
    reason,
    shards,
    learnedFrom: { sessions: history.sessions, points: history.points.length },
  };
}
