import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { limitLiftsAt, pickFallbackAgent, UNKNOWN_RESET_MS } from './agent-fallback.ts';
import { decideNextStep, type NextStepInput } from './next-step.ts';

const NOW = Date.parse('2026-11-25T21:00:00Z');
const base = { agent: 'claude', fallbackAgent: 'codex', limitedUntil: {}, now: NOW } as const;

function atLimit(overrides: Partial<NextStepInput> = {}): NextStepInput {
  return {
    end: 'usage_limit',
    now: NOW,
    iteration: 2,
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
    limitResetsAt: NOW + 3_600_000,
    limitAttempts: 0,
    transientErrors: 0,
    consecutiveCrashes: 0,
    stuck: { stuck: false },
    stuckRestarted: false,
    errorText: "You've hit your limit",
    ...overrides,
  };
}

describe('the loop at a usage limit, with a fallback agent', () => {
  test('the running agent at its limit hands over to the other one', () => {
    assert.equal(pickFallbackAgent({ ...base, current: 'claude' }), 'codex');
    // And back again, once the first one's limit has lifted.
    assert.equal(
      pickFallbackAgent({ ...base, current: 'codex', limitedUntil: { claude: NOW - 1 } }),
      'claude',
    );
  });

  test('no switch to an agent still at its own limit, nor without a fallback', () => {
    assert.equal(
      pickFallbackAgent({ ...base, current: 'codex', limitedUntil: { claude: NOW + 60_000 } }),
      null,
    );
    assert.equal(pickFallbackAgent({ ...base, fallbackAgent: null, current: 'claude' }), null);
  });

  test('a limit without a reset time is held for a while, a reported one until it lifts', () => {
    assert.equal(limitLiftsAt(null, NOW), NOW + UNKNOWN_RESET_MS);
    assert.equal(limitLiftsAt(NOW + 5_000, NOW), NOW + 5_000);
    assert.equal(limitLiftsAt(NOW - 5_000, NOW), NOW + UNKNOWN_RESET_MS);
  });

  test('the decision: switch when an agent is free, wait as before when none is', () => {
    assert.deepEqual(decideNextStep(atLimit({ fallbackAgent: 'codex' })), {
      kind: 'switch_agent',
      to: 'codex',
      reason: "a usage limit (You've hit your limit)",
    });
    assert.equal(decideNextStep(atLimit({ fallbackAgent: null })).kind, 'wait');
    assert.equal(decideNextStep(atLimit()).kind, 'wait');
    // A switch is an iteration like any other: the cap still holds.
    const capped = decideNextStep(atLimit({ fallbackAgent: 'codex', iteration: 10 }));
    assert.equal(capped.kind === 'stop' && capped.reason, 'max_iterations');
    // A claimed, verified completion still wins over the limit.
    assert.equal(
      decideNextStep(atLimit({ fallbackAgent: 'codex', claimedCompletion: true })).kind,
      'complete',
    );
  });
});
