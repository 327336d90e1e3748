import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assessSession, type AssessOptions } from './assess.ts';
import { getSessionSamples } from './threshold.ts';
import type { ThresholdRequest } from '../../agents/agent.ts';
import { claudeRuleFor } from '../../agents/claude/threshold.test-helper.ts';
import {
  createSessionState,
  type CompactionRecord,
  type ResponseRecord,
  type SessionState,
} from '../session.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MODEL = 'claude-opus-4-6';
const CLI = '2.1.39';

function response(turn: number, contextTokens: number): ResponseRecord {
  return {
    turn,
    firstLine: turn * 3,
    lastLine: turn * 3 + 1,
    contextTokens,
    outputTokens: 0,
    at: NOW - HOUR + turn * MINUTE,
    model: MODEL,
    latencyMs: null,
  };
}

function compaction(changes: Partial<CompactionRecord> = {}): CompactionRecord {
  return {
    line: 100,
    trigger: 'auto',
    preTokens: 168_000,
    postTokens: 28_000,
    at: null,
    cliVersion: CLI,
    model: MODEL,
    afterTurn: 30,
    lastContextTokens: 165_000,
    inputSince: true,
    toolsPending: false,
    gapMs: 5_000,
    precomputed: false,
    idleMarker: false,
    ...changes,
  };
}

/** A Claude Code 2.1.39 session on a 200k model with one response per context size given. */
function session(contexts: number[], changes: Partial<SessionState> = {}): SessionState {
  const responses = contexts.map((tokens, i) => response(i + 1, tokens));
  const state = createSessionState('claude');
  state.cliVersion = CLI;
  state.model = MODEL;
  state.turns = responses.length;
  state.responses = responses;
  state.lastResponse = responses.at(-1) ?? null;
  return Object.assign(state, changes);
}

type Changes = Partial<Omit<AssessOptions, 'threshold'>> &
  Partial<Pick<ThresholdRequest, 'env' | 'history' | 'reportedWindow'>>;

/** Assessed by Claude Code's rule (a bare judgment) with what the test changes. */
function assess(state: SessionState, changes: Changes = {}) {
  const { env, history, reportedWindow, ...rest } = changes;
  const threshold = claudeRuleFor(state, {
    ...(env ? { env } : {}),
    ...(history ? { history } : {}),
    ...(reportedWindow !== undefined ? { reportedWindow } : {}),
  });
  return assessSession(state, { threshold, now: NOW, ...rest });
}

describe('assessSession: context size', () => {
  test('a session without responses has no context and is safe', () => {
    const assessment = assess(createSessionState('claude'));
    assert.equal(assessment.contextTokens, 0);
    assert.equal(assessment.contextSource, 'none');
    assert.equal(assessment.percent, 0);
    assert.equal(assessment.level, 'L0');
    assert.equal(assessment.risk, 'safe');
    assert.deepEqual(assessment.riskFactors, []);
    assert.equal(assessment.compactThreshold, 167_000);
    assert.equal(assessment.forecast.basis, 0);
  });

  test('the context size is that of the newest response', () => {
    const assessment = assess(session([100_000, 120_000, 140_000]));
    assert.equal(assessment.contextTokens, 140_000);
    assert.equal(assessment.contextSource, 'usage');
  });

  test('a response still streaming is newer than the last finalized one', () => {
    const state = session([100_000, 120_000, 140_000]);
    state.current = { ...response(4, 150_000), key: 'msg_4', toolUseIds: [] };
    const assessment = assess(state);
    assert.equal(assessment.contextTokens, 150_000);
    assert.equal(assessment.forecast.basis, 4);
  });

  test('percent is the context over the compaction threshold, windowPercent over the window', () => {
    const assessment = assess(session([140_000]));
    assert.equal(assessment.compactThreshold, 167_000);
    assert.equal(assessment.windowTokens, 200_000);
    assert.equal(assessment.percent, 83.8);
    assert.equal(assessment.windowPercent, 70);
    assert.equal(assessment.level, 'L1');
  });

  test('a session at 96% of its threshold is at L3 and in danger', () => {
    const assessment = assess(session([150_000, 160_320]));
    assert.equal(assessment.percent, 96);
    assert.equal(assessment.level, 'L3');
    assert.equal(assessment.risk, 'danger');
    // Two responses are too few for a turns forecast (MIN_FORECAST_BASIS): occupancy decides.
    assert.deepEqual(assessment.riskFactors, [
      'context at 96% of the auto-compact threshold (danger ≥ 95%)',
    ]);
    assert.equal(assessment.forecast.turnsToCompact, null);
  });

  test('after a compaction the context is what the compaction left, until the next response', () => {
    const state = session([], {
      turns: 30,
      lastResponse: response(30, 165_000),
      postCompactTokens: 28_000,
      compactions: [compaction({ preTokens: 168_000 })],
      compactionCount: 1,
    });
    const assessment = assess(state);
    assert.equal(assessment.contextTokens, 28_000);
    assert.equal(assessment.contextSource, 'post-compact');
    assert.equal(assessment.estimatedContextTokens, 28_000);
    // The compaction confirms the 167,000 rule (its last response was at 165,000).
    assert.equal(assessment.percent, 16.8);
    assert.equal(assessment.level, 'L0');
    assert.equal(assessment.forecast.turnsToCompact, null);
    assert.equal(assessment.forecast.turnsToCompactLow, null);
    assert.equal(assessment.forecast.basis, 0);
  });

  test('the estimate adds the newest response output and the text appended since', () => {
    const state = session([140_000], { appendedChars: 700 });
    state.lastResponse = { ...state.lastResponse!, outputTokens: 500 };
    const assessment = assess(state);
    assert.equal(assessment.contextTokens, 140_000);
    assert.equal(assessment.estimatedContextTokens, 140_700);
  });

  test('the forecast is taken from the responses since the last compaction', () => {
    const assessment = assess(session([100_000, 110_000, 120_000, 130_000, 140_000]));
    assert.equal(assessment.forecast.growthPerTurn, 10_000);
    assert.equal(assessment.forecast.turnsToCompact, 2);
    assert.equal(assessment.signals.tokensPerMessage, 10_000);
  });
});

describe('assessSession: threshold', () => {
  test('the session’s own auto compactions feed the threshold', () => {
    const state = session([100_000], {
      compactions: [
        compaction({ preTokens: 166_000, line: 50 }),
        compaction({ preTokens: 165_000 }),
      ],
    });
    const assessment = assess(state);
    assert.equal(assessment.compactThreshold, 165_000);
    assert.equal(assessment.thresholdSource, 'learned');
    assert.equal(
      assessment.thresholdDetail,
      'learned from 2 auto compactions (at 165,000); the 2.1.21–2.1.42 rule says 167,000',
    );
  });

  test('manual compactions and compactions without a size do not feed the threshold', () => {
    const state = session([100_000], {
      compactions: [
        compaction({ trigger: 'manual', preTokens: 120_000 }),
        compaction({ preTokens: null }),
        compaction({ preTokens: 0 }),
      ],
    });
    const assessment = assess(state);
    assert.equal(assessment.compactThreshold, 167_000);
    assert.equal(assessment.thresholdSource, 'default');
  });

  test('getSessionSamples keeps the auto compactions with a size', () => {
    const state = session([], {
      compactions: [
        compaction({ preTokens: 166_000, cliVersion: '2.1.38', model: 'claude-opus-4-5' }),
        compaction({ trigger: 'manual' }),
        compaction({ preTokens: null }),
      ],
    });
    assert.deepEqual(getSessionSamples(state), [
      {
        cliVersion: '2.1.38',
        model: 'claude-opus-4-5',
        preTokens: 166_000,
        lastContextTokens: 165_000,
        kind: 'threshold',
      },
    ]);
  });

  test('history and the session’s own compactions are pooled', () => {
    const history = [
      { cliVersion: CLI, model: MODEL, preTokens: 169_000, lastContextTokens: 160_000 },
      { cliVersion: CLI, model: MODEL, preTokens: 162_000, lastContextTokens: 160_500 },
    ];
    const state = session([100_000], { compactions: [compaction({ preTokens: 168_000 })] });
    const assessment = assess(state, { history });
    // The history's 162,000 caps it: the session's own last response (165,000) came later.
    assert.equal(assessment.compactThreshold, 162_000);
    assert.equal(
      assessment.thresholdDetail,
      'learned from 3 auto compactions (at 162,000); the 2.1.21–2.1.42 rule says 167,000',
    );
  });

  test('a response above 200k moves the session to the 1M window', () => {
    const assessment = assess(session([150_000, 250_000]));
    assert.equal(assessment.windowTokens, 1_000_000);
    assert.equal(assessment.compactThreshold, 967_000);
    assert.equal(assessment.percent, 25.9);
  });

  test('a compaction above 200k moves the session to the 1M window', () => {
    const state = session([50_000], {
      compactions: [compaction({ preTokens: 400_000, lastContextTokens: 395_000 })],
    });
    const assessment = assess(state);
    assert.equal(assessment.windowTokens, 1_000_000);
    assert.equal(assessment.compactThreshold, 395_000);
  });

  test('a window Claude Code reported itself is used', () => {
    const assessment = assess(session([140_000]), { reportedWindow: 1_000_000 });
    assert.equal(assessment.windowTokens, 1_000_000);
    assert.equal(assessment.compactThreshold, 967_000);
  });

  test('the environment is honoured: with auto-compaction off the window is the limit', () => {
    const assessment = assess(session([140_000]), { env: { DISABLE_AUTO_COMPACT: '1' } });
    assert.equal(assessment.autoCompact, false);
    assert.equal(assessment.compactThreshold, 200_000);
    assert.equal(assessment.thresholdSource, 'disabled');
    assert.equal(assessment.percent, 70);
    assert.equal(assessment.level, 'L1');
  });
});

describe('assessSession: risk inputs', () => {
  test('tool calls since the checkpoint default to the calls since the last compaction', () => {
    const state = session([50_000], { toolCalls: 90, toolCallsAtCompaction: 30 });
    const assessment = assess(state);
    assert.equal(assessment.signals.toolCallsSinceCheckpoint, 60);
    assert.deepEqual(assessment.riskFactors, ['60 tool calls since the last checkpoint (≥ 50)']);
    assert.equal(assessment.risk, 'warning');
  });

  test('a checkpoint store’s count replaces the default', () => {
    const state = session([50_000], { toolCalls: 90, toolCallsAtCompaction: 30 });
    const assessment = assess(state, { toolCallsSinceCheckpoint: 4 });
    assert.equal(assessment.signals.toolCallsSinceCheckpoint, 4);
    assert.deepEqual(assessment.riskFactors, []);
  });

  test('a "Prompt is too long" failure after the last compaction puts the session in danger', () => {
    const state = session([50_000], {
      lastPromptTooLongLine: 500,
      compactions: [compaction({ line: 400 })],
    });
    const assessment = assess(state);
    assert.equal(assessment.risk, 'danger');
    assert.deepEqual(assessment.riskFactors, ['the context limit was hit ("Prompt is too long")']);
  });

  test('a "Prompt is too long" failure in a session never compacted puts it in danger', () => {
    const assessment = assess(session([50_000], { lastPromptTooLongLine: 20 }));
    assert.equal(assessment.risk, 'danger');
  });

  test('a "Prompt is too long" failure before the last compaction no longer counts', () => {
    const state = session([50_000], {
      lastPromptTooLongLine: 300,
      compactions: [compaction({ line: 400 })],
    });
    const assessment = assess(state);
    assert.equal(assessment.risk, 'safe');
  });

  test('a long, busy session far from its threshold is a warning', () => {
    const state = session([50_000], {
      turns: 350,
      promptCount: 250,
      startedAt: NOW - 7 * HOUR,
      lastActivityAt: NOW,
    });
    const assessment = assess(state);
    assert.equal(assessment.signals.messageCount, 600);
    assert.equal(assessment.signals.sessionDuration, 7 * HOUR);
    assert.equal(assessment.risk, 'warning');
    assert.deepEqual(assessment.riskFactors, ['600 messages (≥ 500)', 'session running 7h (≥ 6h)']);
  });

  test('an old transcript is judged by how long it was active, not by how long ago it began', () => {
    const state = session([50_000], {
      turns: 350,
      promptCount: 250,
      startedAt: NOW - 30 * HOUR,
      lastActivityAt: NOW - 29 * HOUR,
    });
    const assessment = assess(state);
    assert.equal(assessment.signals.sessionDuration, HOUR);
    assert.equal(assessment.risk, 'warning');
    assert.deepEqual(assessment.riskFactors, ['600 messages (≥ 500)']);
  });

  test('tool failures are read from the state', () => {
    const state = session([50_000], { toolCalls: 20, toolFailures: 6, consecutiveToolFailures: 5 });
    const assessment = assess(state);
    assert.equal(assessment.signals.toolFailureRate, 0.3);
    assert.equal(assessment.risk, 'warning');
    assert.deepEqual(assessment.riskFactors, [
      'tool failure rate 30% (≥ 30%)',
      '5 tool failures in a row (≥ 5)',
    ]);
  });

  test('custom level thresholds are used', () => {
    const assessment = assess(session([140_000]), { levels: { L1: 10, L2: 20, L3: 30 } });
    assert.equal(assessment.level, 'L3');
  });

  test('the signals carry the same risk as the assessment', () => {
    const assessment = assess(session([150_000, 160_320]));
    assert.equal(assessment.signals.crashRisk, assessment.risk);
    assert.deepEqual(assessment.signals.riskFactors, assessment.riskFactors);
    assert.equal(assessment.signals.compactThresholdUsage, 0.96);
  });
});
