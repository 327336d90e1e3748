import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSessionState, type ResponseRecord, type SessionState } from '../session.ts';
import {
  computeSignals,
  estimateAppendedTokens,
  getLatencyTrends,
  getSessionDuration,
  type SignalInput,
} from './signals.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function response(
  turn: number,
  contextTokens: number,
  changes: Partial<ResponseRecord> = {},
): ResponseRecord {
  return {
    turn,
    firstLine: turn * 3,
    lastLine: turn * 3 + 1,
    contextTokens,
    outputTokens: 0,
    at: null,
    model: 'claude-opus-4-6',
    latencyMs: null,
    ...changes,
  };
}

function state(changes: Partial<SessionState> = {}): SessionState {
  return Object.assign(createSessionState('claude'), changes);
}

/** A 30-minute session of 10 prompts and 20 responses, 120k in context, last response 2 minutes ago. */
function busySession(): SessionState {
  return state({
    startedAt: NOW - 30 * MINUTE,
    lastActivityAt: NOW,
    turns: 20,
    promptCount: 10,
    lastResponse: response(20, 120_000, { outputTokens: 700, at: NOW - 2 * MINUTE }),
    appendedChars: 3_500,
    toolCalls: 40,
    toolFailures: 6,
    consecutiveToolFailures: 2,
    latencies: [1_000, 2_000, 3_000],
    errorPatterns: ['prompt_too_long'],
  });
}

function signalInput(changes: Partial<SignalInput> = {}): SignalInput {
  return {
    state: busySession(),
    contextTokens: 120_000,
    windowTokens: 200_000,
    compactThreshold: 167_000,
    growthPerTurn: 2_500,
    toolCallsSinceCheckpoint: 12,
    now: NOW,
    risk: { risk: 'warning', riskFactors: ['context at 72% of the auto-compact threshold'] },
    ...changes,
  };
}

describe('estimateAppendedTokens', () => {
  test('a fresh session has nothing appended', () => {
    assert.equal(estimateAppendedTokens(createSessionState('claude')), 0);
  });

  test('the newest response output and appended text (3.5 characters a token) are added', () => {
    const session = state({
      lastResponse: response(1, 50_000, { outputTokens: 500 }),
      appendedChars: 700,
    });
    assert.equal(estimateAppendedTokens(session), 700);
  });

  test('a response still streaming counts instead of the last finalized one', () => {
    const session = state({
      lastResponse: response(1, 50_000, { outputTokens: 500 }),
      current: { ...response(2, 60_000, { outputTokens: 900 }), key: 'msg_2', toolUseIds: [] },
    });
    assert.equal(estimateAppendedTokens(session), 900);
  });

  test('after a compaction the old response output no longer counts', () => {
    const session = state({
      lastResponse: response(1, 50_000, { outputTokens: 500 }),
      postCompactTokens: 20_000,
      appendedChars: 350,
    });
    assert.equal(estimateAppendedTokens(session), 100);
  });
});

describe('getLatencyTrends', () => {
  test('fewer than six latencies are too few to call a trend', () => {
    assert.deepEqual(getLatencyTrends([1_000, 1_000, 1_000, 90_000, 90_000]), {
      latencyTrend: 'stable',
      responseLatencyTrend: 'normal',
    });
  });

  test('latencies that stay the same are stable and normal', () => {
    assert.deepEqual(getLatencyTrends([2_000, 2_100, 1_900, 2_000, 2_050, 1_950]), {
      latencyTrend: 'stable',
      responseLatencyTrend: 'normal',
    });
  });

  test('a second half 1.5 times slower is still stable', () => {
    assert.equal(
      getLatencyTrends([2_000, 2_000, 2_000, 3_000, 3_000, 3_000]).latencyTrend,
      'stable',
    );
  });

  test('a second half twice as slow is increasing but still normal', () => {
    assert.deepEqual(getLatencyTrends([1_000, 1_000, 1_000, 2_000, 2_000, 2_000]), {
      latencyTrend: 'increasing',
      responseLatencyTrend: 'normal',
    });
  });

  test('a second half 2.5 times slower is degrading', () => {
    assert.deepEqual(getLatencyTrends([1_000, 1_000, 1_000, 2_500, 2_500, 2_500]), {
      latencyTrend: 'increasing',
      responseLatencyTrend: 'degrading',
    });
  });

  test('a second half five times slower is critical', () => {
    assert.deepEqual(getLatencyTrends([1_000, 1_000, 1_000, 5_000, 5_000, 5_000]), {
      latencyTrend: 'increasing',
      responseLatencyTrend: 'critical',
    });
  });

  test('a faster second half is decreasing', () => {
    assert.deepEqual(getLatencyTrends([3_000, 3_000, 3_000, 1_000, 1_000, 1_000]), {
      latencyTrend: 'decreasing',
      responseLatencyTrend: 'normal',
    });
  });

  test('responses over two minutes are degrading even when steady', () => {
    assert.deepEqual(getLatencyTrends(Array<number>(6).fill(130_000)), {
      latencyTrend: 'stable',
      responseLatencyTrend: 'degrading',
    });
  });

  test('responses over five minutes are critical even when steady', () => {
    assert.equal(getLatencyTrends(Array<number>(6).fill(310_000)).responseLatencyTrend, 'critical');
  });

  test('with an odd count the extra latency belongs to the second half', () => {
    // First half [1000, 1000, 1000]; second half [1000, 5000, 5000, 5000] averages 4000.
    assert.deepEqual(getLatencyTrends([1_000, 1_000, 1_000, 1_000, 5_000, 5_000, 5_000]), {
      latencyTrend: 'increasing',
      responseLatencyTrend: 'degrading',
    });
  });
});

describe('getSessionDuration', () => {
  test('a session runs from its first entry to its latest activity', () => {
    const session = state({ startedAt: NOW - 10 * HOUR, lastActivityAt: NOW - 9 * HOUR });
    assert.equal(getSessionDuration(session, NOW), HOUR);
  });

  test('without recorded activity the session runs until now', () => {
    assert.equal(getSessionDuration(state({ startedAt: NOW - 30 * MINUTE }), NOW), 30 * MINUTE);
  });

  test('activity after "now" (a replay) is cut off at now', () => {
    const session = state({ startedAt: NOW - HOUR, lastActivityAt: NOW + HOUR });
    assert.equal(getSessionDuration(session, NOW), HOUR);
  });

  test('a session without a start time, or starting after now, has no duration', () => {
    assert.equal(getSessionDuration(state({ lastActivityAt: NOW }), NOW), 0);
    assert.equal(getSessionDuration(state({ startedAt: NOW + MINUTE }), NOW), 0);
  });
});

describe('computeSignals', () => {
  test('a busy session yields every signal from its state and the measured context', () => {
    assert.deepEqual(computeSignals(signalInput()), {
      estimatedTotalTokens: 121_700,
      tokensPerMessage: 2_500,
      contextWindowUsage: 0.6,
      contextWindowRemaining: 80_000,
      messageCount: 30,
      toolCallCount: 40,
      toolCallsSinceCheckpoint: 12,
      messagesPerMinute: 1,
      sessionDuration: 30 * MINUTE,
      avgResponseLatency: 2_000,
      timeSinceLastResponse: 2 * MINUTE,
      latencyTrend: 'stable',
      responseLatencyTrend: 'normal',
      toolFailureRate: 0.15,
      consecutiveToolFailures: 2,
      errorPatterns: ['prompt_too_long'],
      crashRisk: 'warning',
      riskFactors: ['context at 72% of the auto-compact threshold'],
      compactThresholdUsage: 0.719,
      tokensUntilCompact: 47_000,
    });
  });

  test('the message count is prompts plus responses', () => {
    const session = state({ promptCount: 7, turns: 13 });
    assert.equal(computeSignals(signalInput({ state: session })).messageCount, 20);
  });

  test('without a growth rate, tokens per message is the context averaged over the responses', () => {
    const signals = computeSignals(signalInput({ growthPerTurn: null }));
    assert.equal(signals.tokensPerMessage, 6_000);
  });

  test('without responses, tokens per message is zero', () => {
    const signals = computeSignals(
      signalInput({ state: createSessionState('claude'), growthPerTurn: null }),
    );
    assert.equal(signals.tokensPerMessage, 0);
  });

  test('a context over the threshold and the window has nothing remaining, not a negative amount', () => {
    const signals = computeSignals(signalInput({ contextTokens: 210_000 }));
    assert.equal(signals.tokensUntilCompact, 0);
    assert.equal(signals.contextWindowRemaining, 0);
    assert.equal(signals.compactThresholdUsage, 1.257);
    assert.equal(signals.contextWindowUsage, 1.05);
  });

  test('a zero window or threshold gives zero usage rather than Infinity', () => {
    const signals = computeSignals(signalInput({ windowTokens: 0, compactThreshold: 0 }));
    assert.equal(signals.contextWindowUsage, 0);
    assert.equal(signals.compactThresholdUsage, 0);
  });

  test('a session without a start time has no duration and no message rate', () => {
    const session = state({ turns: 5, promptCount: 5 });
    const signals = computeSignals(signalInput({ state: session }));
    assert.equal(signals.sessionDuration, 0);
    assert.equal(signals.messagesPerMinute, 0);
  });

  test('the message rate is per minute of active session', () => {
    const session = state({
      startedAt: NOW - 4 * HOUR,
      lastActivityAt: NOW - 3 * HOUR,
      turns: 40,
      promptCount: 20,
    });
    const signals = computeSignals(signalInput({ state: session }));
    assert.equal(signals.sessionDuration, HOUR);
    assert.equal(signals.messagesPerMinute, 1);
  });

  test('the time since the last response is measured from the streaming response when there is one', () => {
    const session = busySession();
    session.current = {
      ...response(21, 125_000, { at: NOW - 10_000 }),
      key: 'msg_21',
      toolUseIds: [],
    };
    assert.equal(computeSignals(signalInput({ state: session })).timeSinceLastResponse, 10_000);
  });

  test('a response without a timestamp gives no time since it', () => {
    const session = state({ lastResponse: response(1, 10_000) });
    assert.equal(computeSignals(signalInput({ state: session })).timeSinceLastResponse, 0);
  });

  test('the failure rate is rounded to three decimals, and zero without tool calls', () => {
    const third = computeSignals(signalInput({ state: state({ toolCalls: 3, toolFailures: 1 }) }));
    assert.equal(third.toolFailureRate, 0.333);
    assert.equal(computeSignals(signalInput({ state: state() })).toolFailureRate, 0);
  });

  test('the error patterns are a copy, not the state’s own list', () => {
    const session = busySession();
    const signals = computeSignals(signalInput({ state: session }));
    signals.errorPatterns.push('changed');
    assert.deepEqual(session.errorPatterns, ['prompt_too_long']);
  });
});
