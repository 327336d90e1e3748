/**
 * Before a new run's first iteration: its plan (the prompt file's steps, or the goal's) sized
 * against where the loop restarts a session (core/loop/loop-plan.ts), logged as `loop.plan` —
 * which steps fit in one session, which need shards, after which step it should restart, and a
 * later step to take first when it fits where the next one would be cut (session-plan.ts). A plan
 * that cannot be sized never holds the run up: it is logged and the run starts.
 * @module
 */
import { resolve } from 'node:path';
import { estimatePlan } from '../app/tasks/plan-estimate.ts';
import { restartPercent } from '../core/loop/context-monitor.ts';
import { planLoop } from '../core/loop/loop-plan.ts';
import { reorderFirstSession } from '../core/plan/session-plan.ts';
import { truncate } from '../core/truncate.ts';
import { appendLog } from '../store/home/log.ts';
import type { LoopOptions } from './options.ts';
import type { RunJournal } from './run-journal.ts';
import type { SupervisorDeps } from './supervisor.ts';

export async function planBeforeStart(
  journal: RunJournal,
  options: LoopOptions,
  deps: SupervisorDeps,
  now: number,
): Promise<void> {
  try {
    const estimate = await estimatePlan({
      // Files the plan names are sized from the project of the prompt file (or the run's).
      planPath: resolve(deps.cwd, options.goalSource === '--goal' ? 'goal' : options.goalSource),
      text: options.goal,
      // The run's agent is the one that will run the plan.
      agents: deps.agents,
      agent: options.agent,
      cwd: deps.cwd,
      env: deps.env,
      home: deps.home,
      now,
    });
    const open = estimate.steps.filter((s) => s.step.done !== true);
    if (open.length === 0) return;
    const threshold = {
      compactThreshold: estimate.compactThreshold,
      windowTokens: estimate.windowTokens,
    };
    const percent = restartPercent(
      { thresholdPercent: options.thresholdPercent, window: options.contextWindow },
      threshold,
    );
    const plan = planLoop({
      steps: open.map((s) => ({
        index: s.step.index,
        title: truncate(s.step.title, 80),
        tokens: s.tokens,
      })),
      sharedTokens: estimate.sharedTokens,
      startTokens: Math.max(0, estimate.compactThreshold - estimate.freshContext),
      restartTokens: Math.round((estimate.compactThreshold * percent) / 100),
    });
    // A later step that fits in the first session's room before a step the restart would cut.
    const reorder = reorderFirstSession(plan);
    journal.emit('loop.plan', {
      ...plan,
      reorder,
      basis: estimate.basis,
      agent: options.agent,
      // No session of the agent here: the window is its default for an unknown model.
      windowFrom: estimate.windowFrom,
      windowTokens: estimate.windowTokens,
    });
  } catch (error) {
    appendLog(deps.home, 'warn', 'loop: the plan could not be sized before the start', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
