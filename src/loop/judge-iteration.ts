/**
 * After an iteration: record how it ended, check a claimed completion against the test command,
 * look for a stuck agent, and decide what comes next (core/loop/next-step.ts). Updates the loop
 * state the decision depends on; carrying the decision out is the supervisor's.
 * @module
 */
import { getWorkspaceFingerprint } from '../capture/workspace.ts';
import { hasCompletionMarker } from '../core/loop/completion.ts';
import type { Agents } from '../agents/agent.ts';
import { limitLiftsAt, pickFallbackAgent } from '../core/loop/agent-fallback.ts';
import { decideNextStep, type IterationEnd, type NextStep } from '../core/loop/next-step.ts';
import { advanceStreaks } from '../core/loop/streaks.ts';
import {
  detectStuck,
  errorSignature,
  hashText,
  type IterationFingerprint,
} from '../core/loop/stuck.ts';
import { truncate } from '../core/truncate.ts';
import { redactTextSync } from '../redact/redact.ts';
import type { Env } from '../store/home/home.ts';
import type { FollowResult } from './agent-run.ts';
import { pendingWorkOf, type IterationStats } from './iteration-monitor.ts';
import type { LoopState } from './loop-state.ts';
import type { LoopOptions } from './options.ts';
import type { RunJournal } from './run-journal.ts';
import { runTestCommand, type TestRun } from './test-command.ts';

const FINGERPRINT_HISTORY = 12;

export type IterationOutcome = {
  end: IterationEnd;
  stats: IterationStats;
  follow: FollowResult | null;
};

export async function judgeIteration(
  outcome: IterationOutcome,
  context: {
    journal: RunJournal;
    state: LoopState;
    options: LoopOptions;
    env: Env;
    agents: Agents;
    now: number;
  },
): Promise<NextStep> {
  const { journal, state, options } = context;
  const { end, stats, follow } = outcome;
  const number = journal.run.iteration;
  const cost = stats.result?.costUsd ?? 0;
  const resultText = stats.result?.text ?? stats.lastText;
  journal.repo.updateIteration(journal.runId, number, {
    endedAt: journal.iso(),
    outcome: end,
    exitCode: follow?.code ?? null,
    costUsd: stats.result?.costUsd ?? null,
    responses: stats.responses,
    toolCalls: stats.toolCalls,
    peakContextTokens: stats.peakContextTokens,
    lastContextTokens: stats.lastContextTokens,
    peakPercent: stats.peakPercent,
    resultText: truncate(resultText, 4000),
    streamOffset: follow?.endOffset ?? 0,
  });
  state.agent = null;
  journal.saveRun({
    costUsd: journal.run.costUsd + cost,
    sessionId: stats.sessionId ?? journal.run.sessionId,
  });
  journal.emit(
    'loop.iteration_finished',
    {
      outcome: end,
      exitCode: follow?.code ?? null,
      signal: follow?.signal ?? null,
      costUsd: cost,
      responses: stats.responses,
      toolCalls: stats.toolCalls,
      peakPercent: stats.peakPercent,
      lastPercent: stats.lastPercent,
      result: truncate(resultText, 300),
    },
    number,
  );
  if (end === 'crashed')
    journal.emit(
      'loop.agent_crashed',
      { exitCode: follow?.code ?? null, signal: follow?.signal ?? null },
      number,
    );

  // A scheduled job is cancelled by its id: the note names it.
  const pendingWork = pendingWorkOf(stats).map(
    (task) =>
      `${task.type || 'task'} "${truncate(task.description || task.id, 80)}"${task.type === 'scheduled' ? ` (job ${task.id})` : ''}`,
  );
  if (end === 'mid_work')
    journal.emit(
      'loop.mid_work',
      {
        pending: pendingWork,
        markerSeen: hasCompletionMarker(resultText, options.completionMarker),
      },
      number,
    );

  // Completion: the marker in this iteration's own final answer, confirmed by the tests.
  const claimed =
    end === 'finished' &&
    stats.result !== null &&
    hasCompletionMarker(resultText, options.completionMarker);
  let test: TestRun | null = null;
  if (claimed) {
    journal.emit('loop.completion_claimed', { marker: options.completionMarker }, number);
    if (options.testCommand) test = await runTests(journal, state, options, context.env, number);
  }

  // What this iteration looked like, for stuck detection.
  const errorText =
    stats.apiError?.text ??
    (test && !test.passed ? test.outputTail.slice(-500) : null) ??
    stats.lastToolError;
  if (errorText) notePattern(state, errorText);
  const fingerprint: IterationFingerprint = {
    workspace: workspaceFingerprint(journal.run.cwd),
    errorSignature: errorText ? errorSignature(errorText) : null,
    output: end === 'finished' && resultText ? hashText(resultText) : null,
  };
  const changedSincePrevious =
    fingerprint.workspace !== null &&
    fingerprint.workspace !== state.fingerprints.at(-1)?.workspace;
  if (changedSincePrevious) state.stuckRestarted = false;
  state.fingerprints = [...state.fingerprints, fingerprint].slice(-FINGERPRINT_HISTORY);
  const stuck =
    end === 'usage_limit'
      ? { stuck: false as const }
      : detectStuck(state.fingerprints, options.stuck);

  // A usage limit: note when this agent is free again, and whether the other one is free now.
  const current = state.currentAgent ?? options.agent;
  let fallbackAgent = null;
  if (end === 'usage_limit') {
    state.limitedUntil = {
      ...state.limitedUntil,
      [current]: limitLiftsAt(stats.limit?.resetsAt ?? null, context.now),
    };
    fallbackAgent = pickFallbackAgent({
      current,
      agent: options.agent,
      fallbackAgent: options.fallbackAgent,
      limitedUntil: state.limitedUntil,
      now: context.now,
    });
  }

  const canRescue = (await context.agents.adapter(current)).headless.fork !== null;
  const step = decideNextStep({
    end,
    now: context.now,
    iteration: number,
    maxIterations: options.maxIterations,
    restarts: journal.run.restarts,
    maxRestarts: options.maxRestarts,
    costUsd: journal.run.costUsd,
    budgetUsd: options.budgetUsd,
    claimedCompletion: claimed,
    testsPassed: test ? test.passed : null,
    testTail: test ? test.outputTail.slice(-1500) : null,
    testCommand: options.testCommand,
    lastPercent: stats.lastPercent,
    thresholdPercent: stats.restartPercent,
    sessionKnown: (stats.sessionId ?? journal.run.sessionId) !== null,
    limitResetsAt: stats.limit?.resetsAt ?? null,
    limitAttempts: state.limitAttempts,
    limitMarginMs: options.limitMarginMs,
    retryBaseMs: options.retryBaseMs,
    transientErrors: state.transientErrors,
    consecutiveCrashes: state.consecutiveCrashes,
    stuck,
    stuckRestarted: state.stuckRestarted,
    errorText: errorText ? truncate(errorText, 200) : null,
    pendingWork,
    pendingScheduled: stats.scheduledTasks.length > 0,
    fallbackAgent,
    canRescue,
  });
  if (stuck.stuck)
    journal.emit('loop.stuck_detected', { kind: stuck.kind, detail: stuck.detail }, number);
  Object.assign(state, advanceStreaks(state, end));
  return step;
}

async function runTests(
  journal: RunJournal,
  state: LoopState,
  options: LoopOptions,
  env: Env,
  number: number,
): Promise<TestRun> {
  const test = await runTestCommand(
    options.testCommand!,
    journal.run.cwd,
    env,
    options.testTimeoutMs,
  );
  state.testStatus = {
    command: test.command,
    passed: test.passed,
    outputTail: test.outputTail.slice(-600),
  };
  journal.emit(
    'loop.test_run',
    {
      command: test.command,
      passed: test.passed,
      exitCode: test.exitCode,
      timedOut: test.timedOut,
      durationMs: test.durationMs,
      tail: test.outputTail.slice(-400),
    },
    number,
  );
  return test;
}

/** The run's recurring errors, most frequent first, for the restart summary. */
function notePattern(state: LoopState, text: string): void {
  const signature = errorSignature(text);
  const patterns = state.errorPatterns;
  const found = patterns.find((p) => p.signature === signature);
  if (found) found.count++;
  else patterns.push({ signature, count: 1, example: truncate(redactTextSync(text).text, 160) });
  patterns.sort((a, b) => b.count - a.count);
  state.errorPatterns = patterns.slice(0, 10);
}

function workspaceFingerprint(cwd: string): string | null {
  try {
    return getWorkspaceFingerprint(cwd);
  } catch {
    return null;
  }
}
