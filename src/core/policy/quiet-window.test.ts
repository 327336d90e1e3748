import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assessSession, type Assessment } from '../context/assess.ts';
import { decideAfterToolUse, EMPTY_HOOK_MEMORY, type HookMemory } from './hook-policy.ts';
import { checkpointPolicyOf, DEFAULT_CHECKPOINT_POLICY } from './checkpoint-policy.ts';
import { DEFAULT_LEVEL_THRESHOLDS } from '../context/level.ts';
import { forecastAfter, getQuietWindow, MAX_QUIET_MS, type QuietWindow } from './quiet-window.ts';
import { createSessionState, type SessionState } from '../session.ts';
import { claudeRuleFor } from '../../agents/claude/threshold.test-helper.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MINUTE = 60_000;
const THRESHOLD = 167_000; // Opus 4.6 on Claude Code 2.1.39

type Shape = {
  toolCalls?: number;
  contextTokens?: number;
  turns?: number;
  prompts?: number;
  startedAt?: number;
  failures?: number;
  consecutiveFailures?: number;
  promptTooLongLine?: number | null;
};

function session(shape: Shape = {}): SessionState {
  const state = createSessionState('claude');
  state.model = 'claude-opus-4-6';
  state.cliVersion = '2.1.39';
  state.startedAt = shape.startedAt ?? NOW - 30 * MINUTE;
  state.toolCalls = shape.toolCalls ?? 20;
  state.turns = shape.turns ?? state.toolCalls + 1;
  state.promptCount = shape.prompts ?? 1;
  state.toolFailures = shape.failures ?? 0;
  state.consecutiveToolFailures = shape.consecutiveFailures ?? 0;
  state.lastPromptTooLongLine = shape.promptTooLongLine ?? null;
  state.lastResponse = {
    turn: state.turns,
    firstLine: 10,
    lastLine: 11,
    contextTokens: shape.contextTokens ?? 40_000,
    outputTokens: 200,
    at: NOW - MINUTE,
    model: state.model,
    latencyMs: 2000,
  };
  state.responses = [state.lastResponse];
  return state;
}

function assess(state: SessionState, now = NOW, atCheckpoint = state.toolCalls): Assessment {
  return assessSession(state, {
    threshold: claudeRuleFor(state),
    now,
    toolCallsSinceCheckpoint: state.toolCalls - atCheckpoint,
  });
}

/** Memory right after a checkpoint at `toolCalls` calls, `ago` ms before NOW. */
function checkpointed(toolCalls: number, ago = MINUTE): HookMemory {
  return { ...EMPTY_HOOK_MEMORY, lastCheckpointAt: NOW - ago, toolCallsAtCheckpoint: toolCalls };
}

function windowFor(state: SessionState, memory: HookMemory): QuietWindow | null {
  return getQuietWindow({
    assessment: assess(state, NOW, memory.toolCallsAtCheckpoint),
    memory,
    toolCalls: state.toolCalls,
    offset: 1234,
    now: NOW,
    policy: DEFAULT_CHECKPOINT_POLICY,
    levels: DEFAULT_LEVEL_THRESHOLDS,
  });
}

describe('getQuietWindow', () => {
  test('at L0, far from every threshold: below half the threshold, until the next checkpoint', () => {
    const window = windowFor(session({ toolCalls: 20 }), checkpointed(20, 4 * MINUTE));
    const { view, ...bounds } = window!;
    assert.equal(view.compactThreshold, THRESHOLD);
    assert.equal(view.risk, 'safe');
    assert.deepEqual(bounds, {
      offset: 1234,
      tokensBelow: Math.floor(THRESHOLD * 0.5),
      callsLeft: 4, // the fifth call after the checkpoint is the interval checkpoint: a full look
      until: NOW + 6 * MINUTE, // the time interval (10 min) runs out
    });
    const fresh = windowFor(session({ toolCalls: 22 }), checkpointed(20, 0));
    assert.equal(fresh?.callsLeft, 2);
    assert.equal(fresh?.until, NOW + MAX_QUIET_MS);
  });

  test('under timing "changes": as long as by count while no file changed, to the fallback once one did', () => {
    const policy = checkpointPolicyOf({
      timing: 'changes',
      everyToolCalls: 5,
      fallbackCalls: 3,
      everyMinutes: 10,
    });
    const at = (unsaved: boolean, checkpointAt = 20) =>
      getQuietWindow({
        assessment: assess(session({ toolCalls: 20 }), NOW, checkpointAt),
        memory: { ...checkpointed(checkpointAt), timing: { unsaved } },
        toolCalls: 20,
        offset: 1234,
        now: NOW,
        policy,
        levels: DEFAULT_LEVEL_THRESHOLDS,
      })?.callsLeft;
    assert.equal(at(false), 4);
    assert.equal(at(true), 2);
    // Long after the last checkpoint, with nothing to save: still a window, from this look.
    assert.equal(at(false, 10), 4);
    assert.equal(at(true, 10), undefined);
    // …and past the time checkpoint's interval, which waits for a file change as well.
    const late = getQuietWindow({
      assessment: assess(session({ toolCalls: 20 }), NOW, 20),
      memory: { ...checkpointed(20, 11 * MINUTE), timing: { unsaved: false } },
      toolCalls: 20,
      offset: 1234,
      now: NOW,
      policy,
      levels: DEFAULT_LEVEL_THRESHOLDS,
    });
    assert.equal(late?.until, NOW + MAX_QUIET_MS);
  });

  test('none at L1, above half the threshold, at the interval, or before any checkpoint', () => {
    assert.equal(windowFor(session({ contextTokens: 120_000 }), checkpointed(20)), null);
    assert.equal(windowFor(session({ contextTokens: 84_000 }), checkpointed(20)), null);
    assert.equal(windowFor(session({ toolCalls: 24 }), checkpointed(20)), null);
    assert.equal(windowFor(session(), { ...EMPTY_HOOK_MEMORY }), null);
    assert.equal(windowFor(session(), checkpointed(20, 10 * MINUTE)), null);
  });

  test('none when the risk could change inside it (a third warning within reach)', () => {
    // Running 3.5 h and failing 20% of calls: two warnings, still "safe".
    const long = { startedAt: NOW - 210 * MINUTE, toolCalls: 40, failures: 8 };
    const far = session({ ...long, turns: 200 });
    assert.equal(assess(far).risk, 'safe');
    assert.notEqual(windowFor(far, checkpointed(40)), null);
    // 298 messages: the window's calls could bring the 300th, a third warning.
    const near = session({ ...long, turns: 297 });
    assert.equal(assess(near).risk, 'safe');
    assert.equal(windowFor(near, checkpointed(40)), null);
  });

  test('none when the assessment holds what the window cannot see (a context-limit error)', () => {
    const state = session({ promptTooLongLine: 5 });
    assert.equal(assess(state).risk, 'danger');
    assert.equal(windowFor(state, checkpointed(20)), null);
  });

  test('inside a granted window every full look would decide nothing (random sessions)', () => {
    let seed = 11;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pick = (n: number) => Math.floor(random() * n);
    let granted = 0;
    for (let i = 0; i < 400; i++) {
      const shape: Shape = {
        toolCalls: 10 + pick(200),
        contextTokens: 5_000 + pick(150_000),
        turns: 10 + pick(520),
        startedAt: NOW - pick(7 * 60) * MINUTE,
        consecutiveFailures: pick(3),
      };
      shape.failures = pick(Math.ceil((shape.toolCalls ?? 0) * 0.35));
      const state = session(shape);
      const memory = checkpointed(state.toolCalls - pick(4), pick(12) * MINUTE);
      const assessment = assess(state, NOW, memory.toolCallsAtCheckpoint);
      const window = windowFor(state, memory);
      if (!window) continue;
      granted++;
      // Anywhere in the window: more calls (all successful), more messages, later, more context.
      for (let j = 0; j < 10; j++) {
        const calls = 1 + pick(window.callsLeft);
        const later = NOW + pick(window.until - NOW);
        const inside = session({
          ...shape,
          toolCalls: state.toolCalls + calls,
          turns: (shape.turns ?? 0) + pick(calls * 5),
          contextTokens: pick(window.tokensBelow),
          consecutiveFailures: 0,
        });
        const seen = assess(inside, later, memory.toolCallsAtCheckpoint);
        assert.equal(seen.level, 'L0');
        assert.equal(seen.risk, assessment.risk, `risk in the window of session ${i}`);
        const decision = decideAfterToolUse(
          inside,
          seen,
          { ...memory, riskSeen: assessment.risk },
          later,
        );
        assert.equal(decision.checkpoint, null, `session ${i}: ${decision.checkpoint?.reason}`);
        assert.equal(decision.alert, null);
      }
    }
    assert.ok(granted > 40, `windows granted: ${granted}`);
  });

  test('the forecast moves one response closer per response the window sees', () => {
    const window = windowFor(session({ toolCalls: 20 }), checkpointed(20));
    const view = {
      ...window!.view,
      turnsToCompact: 40,
      turnsToCompactLow: 30,
      turnsToCompactHigh: 3,
    };
    assert.deepEqual(
      [forecastAfter(view, 4).turnsToCompact, forecastAfter(view, 4).turnsToCompactLow],
      [36, 26],
    );
    assert.equal(forecastAfter(view, 4).turnsToCompactHigh, 1, 'never below one');
    assert.equal(forecastAfter({ ...view, turnsToCompact: null }, 4).turnsToCompact, null);
  });
});
