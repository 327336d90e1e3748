/**
 * A plan or spec file sized against the context (EST-001/003, SHD-002): its open steps' tokens,
 * the room in the current session and in a fresh one, and — past 60% of a fresh session — the
 * shards it splits into.
 * @module
 */
import { formatThousands as k } from '../../core/format-tokens.ts';
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { findProjectRoot } from '../../capture/project.ts';
import type { Agent, Agents } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import { mentionedFiles, parsePlan, type Plan } from '../../core/plan/plan.ts';
import { sizePlan, type SizedStep } from '../../core/plan/plan-size.ts';
import { createSessionState, type SessionState } from '../../core/session.ts';
import { SHARD_SHARE, shardPlan, type Shard } from '../../core/plan/shard-plan.ts';
import { DEFAULT_GROWTH, type TaskEstimate } from '../../core/plan/task-estimate.ts';
import { getContextRoom } from '../../core/context/context-room.ts';
import { loadConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { assessLiveSession } from '../session/assess-live-session.ts';
import { loadSessionState } from '../session/read-session.ts';
import { findSessionLog } from '../session/session-log.ts';
import { historyLogs, learnTaskHistory } from './task-history.ts';

/**
 * fits: even the range's upper end fits in the session's room; tight: the estimate fits, its
 * upper end does not; empty: no step could be read (not "done").
 */
export type PlanVerdict = 'fits' | 'tight' | 'fresh-session' | 'shard' | 'done' | 'empty';

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
  /** The auto-compact threshold and the window the room was measured against. */
  compactThreshold: number;
  windowTokens: number;
  /** The agent that will run the plan, whose window and history size it. */
  agent: AgentId;
  /**
   * session: window and threshold of this directory's newest session of that agent (its model);
   * agent-default: none here (or none naming its model yet), so the agent's default for an
   * unknown model — an approximation.
   */
  windowFrom: 'session' | 'agent-default';
  /** What one shard may take: 60% of a fresh session, or what --budget said. */
  budget: number;
  /** Where the budget came from. */
  budgetFrom: 'fresh-session' | 'given';
  /** history: learned from the user's finished tasks; prior: too few yet, the built-in figures. */
  basis: 'history' | 'prior';
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
  agents: Agents;
  /** The agent that will run the plan (`--agent`); by default the newest session's here. */
  agent?: AgentId | null;
  /** Tokens a shard may take instead of 60% of a fresh session. */
  budget?: number;
  /** The plan's text itself (a request typed to /checkpoint --estimate); planPath then names it. */
  text?: string;
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

/** The verdict answers for the range, not its middle: "fits" only when the upper end fits. */
export function planVerdict(size: {
  steps: number;
  openSteps: number;
  tokens: number;
  high: number;
  budget: number;
  remaining: number | null;
}): PlanVerdict {
  const { tokens, high, remaining } = size;
  if (size.steps === 0) return 'empty';
  if (size.openSteps === 0) return 'done';
  if (tokens > size.budget) return 'shard';
  if (remaining !== null && high <= remaining) return 'fits';
  if (remaining !== null && tokens <= remaining) return 'tight';
  return 'fresh-session';
}

/**
 * A request typed as text: its plan if it reads as one (a list of steps), else each sentence or
 * line a step — "add the flag, then update the docs" is two.
 */
export function textAsPlan(text: string): Plan {
  const parsed = parsePlan(text);
  // A list reads as its steps; prose (one "whole" step) is split into its sentences.
  if (parsed.steps.some((step) => step.kind !== 'whole')) return parsed;
  const parts = text
    .split(/\n+|;\s*|\.\s+|,?\s+(?:and )?then\s+/i)
    .map((p) => p.trim().replace(/\.$/, ''))
    .filter((p) => p.length > 2);
  return {
    title: null,
    shared: '',
    steps: parts.map((title, i) => ({
      index: i + 1,
      title,
      body: title,
      sections: [],
      kind: 'bullet' as const,
      done: null,
      line: 1,
    })),
  };
}

/** The newest session of the directory, of any agent, and its state; null when there is none. */
async function latestSession(
  request: PlanEstimateRequest,
): Promise<{ agent: Agent; state: SessionState | null } | null> {
  try {
    const log = await findSessionLog(
      { cwd: request.cwd, env: request.env, agent: request.agent ?? null },
      request.agents,
    );
    const state = await loadSessionState(log.path, request.home, log.agent).catch(() => null);
    return { agent: log.agent, state };
  } catch {
    return null;
  }
}

export async function estimatePlan(request: PlanEstimateRequest): Promise<PlanEstimate> {
  const planPath =
    request.text === undefined ? resolve(request.cwd, request.planPath) : request.planPath;
  const plan =
    request.text === undefined ? parsePlan(readPlan(planPath)) : textAsPlan(request.text);
  const latest = await latestSession(request);
  const session = latest?.state ?? null;
  // What a fresh session has is the agent's: with no session here, the user says which.
  const agent = latest?.agent ?? (request.agent ? await request.agents.agent(request.agent) : null);
  if (agent === null) {
    throw new AppError(
      'USAGE',
      `no session of any agent in ${request.cwd} to size the plan against`,
      'pass --agent claude|codex|gemini: the agent that will run it',
    );
  }
  // The agent's own sessions teach it.
  const history = await learnTaskHistory({
    ...(await historyLogs({
      agents: request.agents,
      only: [agent],
      env: request.env,
      ...(request.historyDir !== undefined ? { dir: request.historyDir } : {}),
    })),
    home: request.home,
    now: request.now,
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  });
  const size = sizePlan({
    plan,
    model: history.model,
    growthPerResponse: history.medianGrowth ?? DEFAULT_GROWTH,
    fileBytes: fileBytesUnder(findProjectRoot(dirname(planPath))),
    project: session?.cwd ?? request.cwd,
  });
  const config = await loadConfig(request.home, { lenient: true, projectRoot: null });
  const assessment = assessLiveSession(agent, session ?? createSessionState(agent.id), {
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
  const budgetText =
    request.budget === undefined
      ? `${Math.round(SHARD_SHARE * 100)}% of a fresh session (${k(budget)} of ${k(fresh)})`
      : `the ${k(budget)} budget given`;
  const openSteps = plan.steps.filter((s) => s.done !== true).length;
  const { tokens, high } = size.total;
  const verdict = planVerdict({
    steps: plan.steps.length,
    openSteps,
    tokens,
    high,
    budget,
    remaining,
  });
  const shards =
    verdict === 'shard'
      ? shardPlan({
          plan,
          tokensOf: (step) => size.steps.find((s) => s.step === step)!.tokens,
          sharedTokens: size.sharedTokens,
          budget,
        })
      : [];
  const range = `${k(size.total.low)}–${k(high)}`;
  const reason = {
    empty:
      'no steps found: shim reads checklists, numbered items, work sections or bullets (a heading per step works too)',
    done: 'every step is ticked',
    shard: `~${k(tokens)} is more than ${budgetText}: ${shards.length} shards`,
    fits: `~${k(tokens)} (80%: ${range}) fits in the ${k(remaining ?? 0)} left in this directory's session`,
    tight: `~${k(tokens)} fits in the ${k(remaining ?? 0)} left, but its 80% range reaches ${k(high)}: a fresh session (${k(fresh)}) is safer`,
    'fresh-session':
      remaining === null
        ? `~${k(tokens)} fits in a fresh session (${k(fresh)})${high > fresh ? `, though its 80% range reaches ${k(high)}: consider shim shard` : ''}`
        : `~${k(tokens)} is more than the ${k(remaining)} left: start a fresh session (${k(fresh)})${high > fresh ? `; its 80% range reaches ${k(high)}: consider shim shard` : ''}`,
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
    compactThreshold: assessment.compactThreshold,
    windowTokens: assessment.windowTokens,
    agent: agent.id,
    // A session that names no model yet tells no more of the window than none.
    windowFrom: session?.model ? 'session' : 'agent-default',
    budget,
    budgetFrom: request.budget === undefined ? 'fresh-session' : 'given',
    basis: history.model.points === 0 ? 'prior' : 'history',
    verdict,
    reason,
    shards,
    learnedFrom: { sessions: history.sessions, points: history.points.length },
  };
}
