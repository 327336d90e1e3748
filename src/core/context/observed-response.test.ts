import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSessionState, type ResponseRecord, type SessionState } from '../session.ts';
import {
  getObservedContext,
  withObservedResponses,
  type ObservedResponse,
} from './observed-response.ts';

const response = (turn: number, contextTokens: number, at: number): ResponseRecord => ({
  turn,
  firstLine: turn,
  lastLine: turn,
  contextTokens,
  outputTokens: 10,
  at,
  model: 'claude-opus-4-6',
  latencyMs: null,
});

function stateWith(contexts: number[]): SessionState {
  const responses = contexts.map((c, i) => response(i + 1, c, 1_000 * (i + 1)));
  return {
    ...createSessionState('claude'),
    responses,
    lastResponse: responses.at(-1) ?? null,
    turns: responses.length,
    model: 'claude-opus-4-6',
  };
}

const seen = (context: number, at: number, step = 0): ObservedResponse => ({
  turnId: 't1',
  step,
  at,
  usage: { input_tokens: 10, cache_read_input_tokens: context - 10, output_tokens: 5 },
});

describe('withObservedResponses', () => {
  test('context is input + cache read + cache creation, as Claude Code counts it', () => {
    assert.equal(
      getObservedContext({
        input_tokens: 3,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 20,
        output_tokens: 9,
      }),
      123,
    );
    assert.equal(getObservedContext({}), 0);
  });

  test('a response the transcript does not show yet becomes the newest', () => {
    const live = withObservedResponses(stateWith([50_000, 60_000]), [seen(90_000, 5_000)]);
    assert.equal(live.turns, 3);
    assert.equal(live.lastResponse?.contextTokens, 90_000);
    assert.equal(live.responses.at(-1)?.turn, 3);
  });

  test('one the transcript already holds (same usage) is not counted twice', () => {
    const state = stateWith([50_000, 60_000, 90_000]);
    assert.equal(withObservedResponses(state, [seen(90_000, 9_000)]), state);
  });

  test('observations from before the newest compaction, or without usage, are ignored', () => {
    const state = {
      ...stateWith([50_000]),
      compactions: [{ at: 8_000 } as SessionState['compactions'][number]],
    };
    assert.equal(withObservedResponses(state, [seen(150_000, 7_000)]), state);
    assert.equal(
      withObservedResponses(state, [{ turnId: 't', step: 0, at: 9_000, usage: {} }]),
      state,
    );
  });

  test('a transcript ahead of the reports: an older observation is never taken for the newest', () => {
    // The mod's reports queued up: the transcript holds responses 1–12 (the last 8 observations
    // are responses 3–10), and some of them are older than any response the transcript's window
    // of matches would list. None may come back as the session's newest response.
    const contexts = Array.from({ length: 12 }, (_, i) => 30_000 + i * 8_000);
    const state = stateWith(contexts);
    const reports = contexts.slice(2, 10).map((c, i) => seen(c, 13_000 + i * 100, i + 2));
    assert.equal(withObservedResponses(state, reports), state);
  });

  test("an observation seen before the transcript's newest response started is an older one", () => {
    // Its usage is none the transcript lists (the transcript left it out of its kept window).
    const state = stateWith([50_000, 60_000, 70_000]);
    assert.equal(withObservedResponses(state, [seen(40_000, 2_500)]), state);
  });

  test('after the newest observation the transcript holds, the ones it does not are the newest', () => {
    const state = stateWith([50_000, 60_000]);
    const live = withObservedResponses(state, [
      seen(50_000, 1_500),
      seen(60_000, 2_500),
      seen(70_000, 3_500),
      seen(80_000, 4_500),
    ]);
    assert.deepEqual(
      live.responses.map((r) => r.contextTokens),
      [50_000, 60_000, 70_000, 80_000],
    );
  });
});
