import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lookAtRolloutTail } from './tail-look.ts';

const line = (type: string, payload: Record<string, unknown>) =>
  `${JSON.stringify({ timestamp: '2026-11-29T04:00:00.000Z', type, payload })}\n`;
const call = (id: string, cmd: string) =>
  line('response_item', {
    type: 'function_call',
    name: 'exec_command',
    call_id: id,
    arguments: JSON.stringify({ cmd }),
  });
const output = (id: string, text: string) =>
  line('response_item', { type: 'function_call_output', call_id: id, output: text });
const tokens = (context: number, total: number) =>
  line('event_msg', {
    type: 'token_count',
    info: {
      total_token_usage: { input_tokens: total - 50, output_tokens: 50, total_tokens: total },
      last_token_usage: { input_tokens: context - 50, output_tokens: 50, total_tokens: context },
      model_context_window: 258_400,
    },
  });

describe('lookAtRolloutTail', () => {
  test("the newest response's context, its responses and calls; a repeated total counted once", () => {
    const text =
      call('c1', 'ls') +
      tokens(20_000, 20_000) +
      output('c1', 'Process exited with code 0\nOutput:\na.ts\n') +
      call('c2', 'cat a.ts') +
      call('c3', 'cat b.ts') +
      tokens(21_000, 41_000) +
      // Written twice (0.44–0.104): the same response.
      tokens(21_000, 41_000) +
      output('c2', 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nx\n') +
      // A line still being written is left for the next look.
      '{"timestamp":"2026-11-29T04:00:01.000Z","type":"event_msg","payload":{"type":"token_co';
    assert.deepEqual(lookAtRolloutTail(text), {
      contextTokens: 21_000,
      responses: 2,
      toolCalls: 3,
      eventful: false,
    });
    assert.deepEqual(lookAtRolloutTail(''), {
      contextTokens: null,
      responses: 0,
      toolCalls: 0,
      eventful: false,
    });
  });

  test('a compaction, an error, a new turn or a failed call is for a full look', () => {
    const eventful = [
      line('compacted', { message: 'summary' }),
      line('event_msg', { type: 'context_compacted' }),
      line('event_msg', { type: 'error', message: 'stream disconnected' }),
      line('event_msg', { type: 'stream_error', message: 'retrying' }),
      line('event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
      line('turn_context', { model: 'gpt-5.5', cwd: '/p' }),
      line('session_meta', { id: 'x', cwd: '/p' }),
      output('c1', 'Process exited with code 1\nOutput:\nFAIL\n'),
      output('c1', 'Exit code: 127\nOutput:\nnot found\n'),
      output('c1', JSON.stringify({ output: 'no', metadata: { exit_code: 2 } })),
      line('response_item', {
        type: 'function_call_output',
        call_id: 'c1',
        output: { success: false },
      }),
    ];
    for (const text of eventful)
      assert.equal(lookAtRolloutTail(call('c1', 'ls') + text).eventful, true, text.slice(0, 90));
    // A message that only talks about a failure is not one.
    const talk = line('event_msg', { type: 'agent_message', message: 'it said "type":"error"' });
    assert.equal(lookAtRolloutTail(talk).eventful, false);
  });
});
