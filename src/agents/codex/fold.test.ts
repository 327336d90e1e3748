import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { holdsHookResponse } from '../../hook/hook-response.ts';
import { readCompressedRollout, readRollout } from './transcript-reader.ts';

const dir = mkdtempSync(join(tmpdir(), 'shim-codex-fold-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const line = (type: string, payload: Record<string, unknown>) =>
  JSON.stringify({ timestamp: '2026-11-25T10:00:00.000Z', type, payload });
const usage = (input: number, output: number, total: number) => ({
  type: 'token_count',
  info: {
    total_token_usage: { input_tokens: total, output_tokens: 0, total_tokens: total },
    last_token_usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
    model_context_window: 258_400,
  },
});

describe('Codex rollout fold', () => {
  test('unknown line types are skipped, doubled token lines count once, a truncated last line waits', () => {
    const path = join(
      dir,
      'rollout-2026-11-25T10-00-00-01a2140b-6f3a-79f0-b6fd-d2a321939c67.jsonl',
    );
    writeFileSync(
      path,
      [
        line('session_meta', { id: 'abc', cwd: '/p', cli_version: '0.169.0' }),
        line('brand_new_kind', { whatever: true }),
        line('event_msg', { type: 'user_message', message: 'fix the bug' }),
        line('event_msg', usage(10_000, 100, 10_100)),
        line('event_msg', usage(10_000, 100, 10_100)),
        line('event_msg', { type: 'token_count', info: null }),
        '{"timestamp":"2026-11-25T10:00:01.000Z","type":"event_msg","payload":{"type":"tok',
      ].join('\n'),
    );
    const { cursor } = readRollout(path, null, { finalize: true });
    const state = cursor.state;
    assert.equal(state.agent, 'codex');
    assert.equal(state.sessionId, 'abc');
    assert.equal(state.turns, 1);
    assert.equal(state.lastResponse?.contextTokens, 10_100);
    assert.equal(state.logWindowTokens, 258_400);
    assert.equal(state.prompts[0]?.text, 'fix the bug');

    // The torn line waits for the rest of it: read once it is whole, from where the read stopped.
    const before = cursor.offset;
    appendFileSync(
      path,
      'en_count","info":{"last_token_usage":{"input_tokens":12000,"output_tokens":80,"total_tokens":12080},"model_context_window":258400}}}\n',
    );
    const next = readRollout(path, cursor, { finalize: true });
    assert.ok(next.cursor.offset > before);
    assert.equal(next.cursor.state.turns, 2);
    assert.equal(next.cursor.state.lastResponse?.contextTokens, 12_080);
  });

  test('a response knows the calls it asked for, so PostToolUse finds it on disk (tool_use_id = call_id)', () => {
    const path = join(
      dir,
      'rollout-2026-11-25T10-00-00-01a2140b-6f3a-79f0-b6fd-d2a321939c70.jsonl',
    );
    const call = (id: string, cmd: string) =>
      line('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd }),
        call_id: id,
      });
    const output = (id: string) =>
      line('response_item', { type: 'function_call_output', call_id: id, output: 'ok' });
    const lines = [
      line('session_meta', { id: 'calls', cwd: '/p', cli_version: '0.169.0' }),
      line('event_msg', { type: 'user_message', message: 'list it' }),
      call('call_a', 'ls'),
      line('event_msg', usage(10_000, 100, 10_100)),
      output('call_a'),
      call('call_b', 'ls src'),
      call('call_c', 'ls test'),
    ];
    writeFileSync(path, lines.join('\n') + '\n');
    const before = readRollout(path, null).cursor;
    const payload = (id: string) =>
      ({ event: 'PostToolUse', raw: { hook_event_name: 'PostToolUse', tool_use_id: id } }) as never;
    assert.equal(holdsHookResponse(before.state, payload('call_a')), true);
    assert.equal(holdsHookResponse(before.state, payload('call_b')), false, 'not on disk yet');
    writeFileSync(path, [...lines, line('event_msg', usage(12_000, 80, 22_180))].join('\n') + '\n');
    const after = readRollout(path, before).cursor;
    assert.deepEqual(after.state.current?.toolUseIds, ['call_b', 'call_c']);
    assert.equal(holdsHookResponse(after.state, payload('call_c')), true);
  });

  test('where it was: shell commands verbatim with their exit codes (either output shape), the newest failure, the plan no pending work', () => {
    const path = join(
      dir,
      'rollout-2026-11-25T10-00-00-01a2140b-6f3a-79f0-b6fd-d2a321939c71.jsonl',
    );
    const call = (id: string, name: string, args: Record<string, unknown>) =>
      line('response_item', {
        type: 'function_call',
        name,
        arguments: JSON.stringify(args),
        call_id: id,
      });
    const output = (id: string, text: string) =>
      line('response_item', { type: 'function_call_output', call_id: id, output: text });
    writeFileSync(
      path,
      [
        line('session_meta', { id: 'where', cwd: '/p', cli_version: '0.104.0' }),
        line('event_msg', { type: 'user_message', message: 'make the tests pass' }),
        call('a', 'shell', { command: ['bash', '-lc', 'rg "feature" -n src'] }),
        output(
          'a',
          JSON.stringify({
            output: 'rg: src: No such file or directory\n',
            metadata: { exit_code: 2 },
          }),
        ),
        call('b', 'exec_command', { cmd: 'npm test' }),
        output(
          'b',
          'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n12 passing\n',
        ),
        call('c', 'exec_command', { cmd: 'git push' }),
        output('c', 'aborted by user'),
        call('d', 'update_plan', { plan: [{ step: 'ship it', status: 'in_progress' }] }),
        call('e', 'exec_command', { cmd: 'npm run e2e' }),
      ].join('\n') + '\n',
    );
    const state = readRollout(path, null).cursor.state;
    assert.deepEqual(
      state.commands.map((c) => [c.command, c.status, c.exitCode]),
      [
        ['rg "feature" -n src', 'failed', 2],
        ['npm test', 'ok', 0],
        ['git push', 'stopped', null],
        ['npm run e2e', 'running', null],
      ],
    );
    assert.deepEqual(
      {
        tool: state.lastFailure?.tool,
        target: state.lastFailure?.target,
        exit: state.lastFailure?.exitCode,
      },
      { tool: 'Bash', target: 'rg "feature" -n src', exit: 2 },
    );
    assert.equal(
      state.lastFailure?.output,
      'rg: src: No such file or directory\n',
      'the body, not the JSON',
    );
    assert.equal(state.recentTools[1]?.result, '12 passing\n', 'the header is not the output');
    assert.deepEqual(
      state.pendingTools.map((p) => [p.tool, p.kind]),
      [
        ['update_plan', 'task_list'],
        ['Bash', 'shell'],
      ],
    );
  });

  test('a corrupt .zst is one clear error', async () => {
    const path = join(
      dir,
      'rollout-2026-11-25T10-00-00-01a2140b-6f3a-79f0-b6fd-d2a321939c68.jsonl.zst',
    );
    writeFileSync(path, Buffer.from('not zstd at all'));
    await assert.rejects(readCompressedRollout(path), (error: Error) => {
      assert.match(error.message, /cannot decompress .*\.zst/);
      assert.ok(!error.message.includes('\n'));
      return true;
    });
  });
});
