import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  apiErrorLine,
  assistantLine,
  compactBoundaryLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
} from '../../../test/helpers/transcript-builders.ts';
import { lookAtTail } from './tail-look.ts';

const usage = (cacheRead: number) => ({ input: 5, cacheCreation: 1000, cacheRead, output: 50 });

describe('lookAtTail', () => {
  test("the newest main-chain response's context; subagents and partial lines do not count", () => {
    const text =
      toJsonl([
        assistantLine({
          id: 'msg_1',
          usage: usage(20_000),
          content: [toolUseBlock('toolu_1', 'Read', { file_path: '/a' })],
        }),
        toolResultLine({ toolUseId: 'toolu_1', content: 'fine' }),
        // A response streamed as two lines: its two calls counted once each.
        assistantLine({
          id: 'msg_2',
          usage: usage(30_000),
          content: [toolUseBlock('toolu_2', 'Read', { file_path: '/b' })],
        }),
        assistantLine({
          id: 'msg_2',
          usage: usage(30_000),
          content: [toolUseBlock('toolu_3', 'Grep', { pattern: 'x' })],
        }),
        assistantLine({
          id: 'msg_side',
          usage: usage(90_000),
          sidechain: true,
          content: [toolUseBlock('toolu_side', 'Read', { file_path: '/c' })],
        }),
      ]) + JSON.stringify(assistantLine({ id: 'msg_3', usage: usage(99_000) })).slice(0, 200);
    assert.deepEqual(lookAtTail(text), {
      contextTokens: 31_005,
      responses: 2,
      toolCalls: 3,
      eventful: false,
    });
    assert.deepEqual(lookAtTail(''), {
      contextTokens: null,
      responses: 0,
      toolCalls: 0,
      eventful: false,
    });
  });

  test('a compaction, a failed call or an API error needs a full look', () => {
    for (const line of [
      compactBoundaryLine({ trigger: 'auto', preTokens: 160_000 }),
      toolResultLine({ toolUseId: 'toolu_1', content: 'boom', isError: true }),
      apiErrorLine({ status: 529, type: 'overloaded_error' }),
    ]) {
      const text = toJsonl([assistantLine({ id: 'msg_1', usage: usage(20_000) }), line]);
      assert.equal(lookAtTail(text).eventful, true, JSON.stringify(line).slice(0, 80));
    }
  });

  test('text that merely quotes those markers is not an event', () => {
    const text = toJsonl([
      assistantLine({
        id: 'msg_1',
        usage: usage(20_000),
        content: [toolUseBlock('toolu_1', 'Read', { file_path: '/x/"is_error":true' })],
      }),
      toolResultLine({ toolUseId: 'toolu_1', content: '{"subtype":"compact_boundary"}' }),
    ]);
    assert.equal(lookAtTail(text).eventful, false);
  });
});
