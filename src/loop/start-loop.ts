/**
 * Starting a loop run, and resuming one a killed or interrupted supervisor left behind.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { collectLoopGarbage } from '../app/retention/collect-loop-garbage.ts';
import { getLoopRunLiveness } from '../app/loop-run-liveness.ts';
import { getHeadCommit } from '../capture/workspace.ts';
import type { AgentId } from '../core/agent-id.ts';
import { AppError } from '../core/errors.ts';
import { truncate } from '../core/truncate.ts';
import { loadConfig } from '../store/config/config.ts';
import { appendLog } from '../store/home/log.ts';
import type { LoopRunRecord } from '../store/ports/loops.ts';
import { initialLoopState, readLoopState } from './loop-state.ts';
import { readStoredLoopOptions, type LoopOptions } from './options.ts';
import { RunJournal, type LoopResult } from './run-journal.ts';
import { Supervisor, type SupervisorDeps } from './supervisor.ts';

import { planBeforeStart } from './plan-before-start.ts';

export type { LoopResult } from './run-journal.ts';
export type { SupervisorDeps } from './supervisor.ts';

/** "3fa9c2-20261122-041753": random first, so a few characters name a run (like a git hash). */
export function newRunId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${randomBytes(3).toString('hex')}-${stamp}`;
}

/** Starts a new run. */
export async function startLoop(options: LoopOptions, deps: SupervisorDeps): Promise<LoopResult> {
  const now = (deps.now ?? Date.now)();
  const config = await loadConfig(deps.home);
  collectOldRuns(deps, now, config.loopRetention);
  const repo = deps.store.loops;
  const at = new Date(now).toISOString();
  const state = initialLoopState();
  let startCommit: string | null = null;
  try {
    startCommit = getHeadCommit(deps.cwd);
  } catch {
    // not a git repository: the summaries go without a list of changed files
  }
  const run: LoopRunRecord = {
    runId: newRunId(now),
    createdAt: at,
    updatedAt: at,
    cwd: deps.cwd,
    goal: options.goal,
    status: 'running',
    stopReason: null,
    options,
    startCommit,
    iteration: 0,
    restarts: 0,
    sessionId: null,
    supervisorPid: process.pid,
    costUsd: 0,
    contextTokens: null,
    contextPercent: null,
    lastEvent: null,
    waitUntil: null,
    state,
    endedAt: null,
    compactedAt: null,
    agent: options.agent,
  };
  repo.createRun(run);
  const journal = new RunJournal({ ...deps, now: deps.now ?? Date.now }, run);
  try {
    journal.emit('loop.started', {
      goal: truncate(options.goal, 300),
      goalSource: options.goalSource,
      cwd: deps.cwd,
      agent: options.agent,
      fallbackAgent: options.fallbackAgent,
      bins: options.bins,
      maxIterations: options.maxIterations,
      maxRestarts: options.maxRestarts,
      thresholdPercent: options.thresholdPercent,
      contextWindow: options.contextWindow,
      testCommand: options.testCommand,
      budgetUsd: options.budgetUsd,
      startCommit: run.startCommit,
    });
    await planBeforeStart(journal, options, deps, now);
    return await new Supervisor(deps, journal, options, state, config).run(null);
  } finally {
    journal.close();
  }
}

export type ResumeOverrides = {
  /** Merged over the stored ones: an agent not named keeps its binary. */
  bins?: Partial<Record<AgentId, string>>;
  maxIterations?: number;
  budgetUsd?: number | null;
};

/** Continues a run a killed or interrupted supervisor left behind. */
export async function resumeLoop(
  runId: string | null,
  overrides: ResumeOverrides,
  deps: SupervisorDeps,
): Promise<LoopResult> {
  const config = await loadConfig(deps.home);
  const repo = deps.store.loops;
  const run = runId
    ? repo.findRun(runId)
    : repo.latestRun({ cwd: deps.cwd, statuses: ['running', 'waiting', 'interrupted'] });
  if (!run) {
    throw new AppError(
      'USAGE',
      runId ? `no loop run ${runId}` : `no unfinished loop run in ${deps.cwd}`,
      'see `shim loop list`',
    );
  }
  if (run.status === 'completed') {
    throw new AppError(
      'USAGE',
      `loop run ${run.runId} already completed`,
      'start a new one with shim loop --goal …',
    );
  }
  if (getLoopRunLiveness(run) === 'supervised' && run.supervisorPid !== process.pid) {
    throw new AppError(
      'USAGE',
      `loop run ${run.runId} is being supervised by process ${run.supervisorPid}`,
      `watch it with shim loop status ${run.runId}, or stop that process first`,
    );
  }
  const stored = readStoredLoopOptions(run.runId, run.options);
  const options = {
    ...stored,
    ...definedOnly(overrides),
    bins: { ...stored.bins, ...overrides.bins },
  };
  const state = readLoopState(run.state);
  const inFlight = repo.getIterations(run.runId).find((i) => i.endedAt === null) ?? null;
  repo.updateRun(run.runId, {
    supervisorPid: process.pid,
    status: run.status === 'waiting' ? 'waiting' : 'running',
    stopReason: null,
    endedAt: null,
  });
  const journal = new RunJournal({ ...deps, now: deps.now ?? Date.now }, repo.getRun(run.runId)!);
  try {
    if (!inFlight) {
      journal.emit('loop.resumed', {
        fromStatus: run.status,
        iteration: run.iteration,
        inFlight: null,
      });
      // A run stopped by a limit it has now passed (iterations, budget) goes on from where it was.
      if (state.nextMode === 'continue' && !journal.run.sessionId) state.nextMode = 'fresh';
    }
    return await new Supervisor(deps, journal, options, state, config).run(inFlight);
  } finally {
    journal.close();
  }
}

/** Retention of old runs (config loopRetention), applied as each run starts: cheap, and never
 * in the run's way. */
function collectOldRuns(
  deps: SupervisorDeps,
  now: number,
  retention: { hotDays: number; retentionDays: number },
): void {
  try {
    collectLoopGarbage({ store: deps.store, home: deps.home, now, ...retention });
  } catch (error) {
    appendLog(deps.home, 'warn', 'loop: retention of old runs failed', { error: String(error) });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
