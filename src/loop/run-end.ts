/**
 * How a loop run ends: the goal met or a stop (a budget, a limit, a failure) written to its
 * journal with the run's row closed, or an interruption that leaves everything for
 * `shim loop --resume`. The exit code the command returns comes with it.
 * @module
 */
import type { NextStep } from '../core/loop/next-step.ts';
import type { LoopRunStatus } from '../store/ports/loops.ts';
import type { LoopState } from './loop-state.ts';
import type { LoopResult, RunJournal } from './run-journal.ts';

/** A run that reached its end (the goal met, or stopped): said in its journal, its row closed. */
export function finishRun(
  journal: RunJournal,
  step: Extract<NextStep, { kind: 'complete' | 'stop' }>,
  budgetUsd: number | null,
): LoopResult {
  const run = journal.run;
  const status: LoopRunStatus = step.kind === 'complete' ? 'completed' : step.status;
  const reason = step.kind === 'complete' ? step.reason : `${step.reason}: ${step.detail}`;
  if (step.kind === 'complete') {
    journal.emit(
      'loop.completed',
      { reason: step.reason, iterations: run.iteration, costUsd: run.costUsd },
      run.iteration,
    );
  } else {
    if (step.reason === 'budget_exceeded')
      journal.emit('loop.budget_exceeded', { costUsd: run.costUsd, budgetUsd }, run.iteration);
    journal.emit(
      'loop.stopped',
      { status, reason: step.reason, detail: step.detail },
      run.iteration,
    );
  }
  journal.saveRun({
    status,
    stopReason: reason,
    endedAt: journal.iso(),
    supervisorPid: null,
    waitUntil: null,
  });
  return journal.result(status === 'completed' ? 0 : 1);
}

/** A run stopped by a signal: its state kept for `shim loop --resume`. */
export function interruptRun(journal: RunJournal, state: LoopState): LoopResult {
  journal.emit(
    'loop.stopped',
    {
      status: 'interrupted',
      reason: 'signal',
      detail: 'interrupted; continue with shim loop --resume',
    },
    journal.run.iteration || null,
  );
  journal.saveState(state);
  journal.saveRun({
    status: 'interrupted',
    stopReason: 'interrupted by a signal',
    supervisorPid: null,
  });
  return journal.result(130);
}
