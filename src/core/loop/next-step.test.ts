import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideNextStep, type NextStepInput } from './next-step.ts';

const NOW = Date.parse('2026-11-22T10:00:00Z');

function input(overrides: Partial<NextStepInput> = {}): NextStepInput {
  return {
    end: 'finished',
    now: NOW,
    iteration: 1,
    maxIterations: 10,
    restarts: 0,
    maxRestarts: 3,
    costUsd: 0,
    budgetUsd: null,
    claimedCompletion: false,
    testsPassed: null,
    testTail: null,
    testCommand: null,
    lastPercent: 20,
    thresholdPercent: 70,
    sessionKnown: true,
    limitResetsAt: null,
    limitAttempts: 0,
    transientErrors: 0,
    consecutiveCrashes: 0,
    stuck: { stuck: false },
    stuckRestarted: false,
    errorText: null,
    ...overrides,
  };
}

describe('decideNextStep', () => {
  test('a plain finished turn below the threshold continues the same session', () => {
    assert.deepEqual(decideNextStep(input()), { kind: 'continue', note: null });
  });

  test('over the context window: a rescue where the agent can fork, else a fresh restart', () => {
    const overflow = input({ end: 'context_overflow', errorText: 'Prompt is too long' });
    assert.equal(decideNextStep({ ...overflow, canRescue: true }).kind, 'rescue');
    const fresh = decideNextStep({ ...overflow, canRescue: false });
    assert.ok(fresh.kind === 'restart' && fresh.fresh && fresh.reason === 'context_exhaustion');
    assert.equal(
      decideNextStep({ ...overflow, canRescue: true, sessionKnown: false }).kind,
      'restart',
    );
    // A rescue uses a restart: none left, the run stops rather than loop on the wall.
    const spent = decideNextStep({ ...overflow, canRescue: true, restarts: 3 });
    assert.equal(spent.kind === 'stop' && spent.reason, 'max_restarts');
  });

  test('a turn that ended mid-work continues the session and names what was pending', () => {
    const step = decideNextStep(
      input({ end: 'mid_work', pendingWork: ['local_bash "slow build"'] }),
    );
    assert.equal(step.kind, 'continue');
    assert.match(
      step.kind === 'continue' ? (step.note ?? '') : '',
      /still running \(local_bash "slow build"\)/,
    );
    assert.doesNotMatch(step.kind === 'continue' ? (step.note ?? '') : '', /CronDelete/);
    const scheduled = decideNextStep(
      input({
        end: 'mid_work',
        pendingWork: ['scheduled "*/5 * * * *: check the build" (job 7150f4aa)'],
        pendingScheduled: true,
      }),
    );
    assert.match(
      scheduled.kind === 'continue' ? (scheduled.note ?? '') : '',
      /\(scheduled "\*\/5 \* \* \* \*: check the build" \(job 7150f4aa\)\).*does not run by itself.*CronDelete/,
    );
    const unknown = decideNextStep(input({ end: 'mid_work', sessionKnown: false }));
    assert.equal(unknown.kind, 'restart');
  });

  test('completion needs the claim, and the tests when a test command is set', () => {
    assert.equal(decideNextStep(input({ claimedCompletion: true })).kind, 'complete');
    const failed = decideNextStep(
      input({
        claimedCompletion: true,
        testCommand: 'npm test',
        testsPassed: false,
        testTail: '1 failing',
      }),
    );
    assert.equal(failed.kind, 'continue');
    assert.match(
      failed.kind === 'continue' ? (failed.note ?? '') : '',
      /npm test.*failed[\s\S]*1 failing/,
    );
    const passed = decideNextStep(
      input({ claimedCompletion: true, testCommand: 'npm test', testsPassed: true }),
    );
    assert.deepEqual(passed.kind, 'complete');
  });

  test('completion wins over the budget and the iteration limit', () => {
    const step = decideNextStep(
      input({
        claimedCompletion: true,
        budgetUsd: 1,
        costUsd: 5,
        iteration: 10,
        maxIterations: 10,
      }),
    );
    assert.equal(step.kind, 'complete');
  });

  test('the threshold (ended by shim, or finished above it) restarts fresh', () => {
    for (const end of ['context_threshold', 'finished'] as const) {
      const step = decideNextStep(input({ end, lastPercent: 72 }));
      assert.equal(step.kind, 'restart');
      assert.equal(step.kind === 'restart' && step.reason, 'context_exhaustion');
      assert.equal(step.kind === 'restart' && step.fresh, true);
    }
  });

  test('restarts are capped: the cap stops the run with the reason', () => {
    const step = decideNextStep(input({ end: 'context_threshold', restarts: 3, maxRestarts: 3 }));
    assert.equal(step.kind, 'stop');
    assert.equal(step.kind === 'stop' && step.reason, 'max_restarts');
  });

  test('usage limits wait until the reported reset, and give up when it is too far', () => {
    const resetsAt = NOW + 3_600_000;
    const wait = decideNextStep(
      input({ end: 'usage_limit', limitResetsAt: resetsAt, limitMarginMs: 0 }),
    );
    assert.deepEqual(wait.kind === 'wait' && [wait.until, wait.limit], [resetsAt, true]);
    const far = decideNextStep(
      input({ end: 'usage_limit', limitResetsAt: NOW + 3 * 24 * 3_600_000 }),
    );
    assert.equal(far.kind, 'stop');
    assert.equal(far.kind === 'stop' && far.reason, 'usage_limit');
  });

  test('a limit without a reset time backs off', () => {
    const first = decideNextStep(input({ end: 'usage_limit', limitAttempts: 0 }));
    const third = decideNextStep(input({ end: 'usage_limit', limitAttempts: 2 }));
    assert.ok(
      first.kind === 'wait' && third.kind === 'wait' && third.until - NOW > first.until - NOW,
    );
  });

  test('transient API errors pause and retry, then count as crashes', () => {
    const retry = decideNextStep(
      input({ end: 'api_error', retryBaseMs: 100, errorText: '529 Overloaded' }),
    );
    assert.equal(retry.kind, 'wait');
    assert.equal(retry.kind === 'wait' && retry.limit, false);
    const exhausted = decideNextStep(input({ end: 'api_error', transientErrors: 5 }));
    assert.equal(exhausted.kind, 'restart');
  });

  test('a crash continues the known session; repeated crashes or no session start fresh', () => {
    const first = decideNextStep(input({ end: 'crashed' }));
    assert.ok(first.kind === 'restart' && first.reason === 'crash' && !first.fresh);
    const again = decideNextStep(input({ end: 'crashed', consecutiveCrashes: 2 }));
    assert.ok(again.kind === 'restart' && again.fresh);
    const unknown = decideNextStep(input({ end: 'crashed', sessionKnown: false }));
    assert.ok(unknown.kind === 'restart' && unknown.fresh);
  });

  test('a timeout restarts fresh (the session may be wedged)', () => {
    const step = decideNextStep(input({ end: 'timeout' }));
    assert.ok(step.kind === 'restart' && step.reason === 'timeout' && step.fresh);
  });

  test('stuck restarts fresh once, then stops', () => {
    const stuck = {
      stuck: true as const,
      kind: 'no_file_changes' as const,
      detail: '3 iterations changed no file',
    };
    const first = decideNextStep(input({ stuck }));
    assert.ok(first.kind === 'restart' && first.reason === 'stuck');
    const second = decideNextStep(input({ stuck, stuckRestarted: true }));
    assert.ok(second.kind === 'stop' && second.reason === 'stuck');
  });

  test('an orphaned iteration continues its session without counting a restart', () => {
    const step = decideNextStep(input({ end: 'orphaned' }));
    assert.equal(step.kind, 'continue');
  });

  test('the budget and the iteration limit stop the run', () => {
    const budget = decideNextStep(input({ budgetUsd: 2, costUsd: 2.5 }));
    assert.ok(budget.kind === 'stop' && budget.reason === 'budget_exceeded');
    assert.match(budget.kind === 'stop' ? budget.detail : '', /\$2\.50 of the \$2\.00/);
    const iterations = decideNextStep(input({ iteration: 10, maxIterations: 10 }));
    assert.ok(iterations.kind === 'stop' && iterations.reason === 'max_iterations');
  });
});
