/**
 * Bad input from Codex CLI and Gemini CLI, through the built shim: a damaged archive is one clear
 * line (never "a bug in shim"), hook payloads from a newer CLI (fields shim does not know, on a
 * rollout with unknown line types and a torn last line) exit 0 and lose nothing, a broken payload
 * or an unknown event is one log line. Readers' own cases: agents/codex/fold.test.ts,
 * agents/gemini/chat-reader.test.ts; Gemini's hooks under the real CLI: test/e2e/gemini.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';

const SESSION = '01a2140b-6f3a-79f0-b6fd-d2a321939c67';

function logLines(home: string): { level: string; message: string }[] {
  const path = join(home, 'logs', 'shim.log');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { level: string; message: string });
}

describe('damaged archives: one clear line', () => {
  const home = makeWarmHome('shim-bad-archive-');
  const zst = join(home, `rollout-2026-11-25T10-00-00-${SESSION}.jsonl.zst`);
  writeFileSync(zst, 'not zstd at all');
  mkdirSync(join(home, 'slug', 'chats'), { recursive: true });
  const gz = join(home, 'slug', 'chats', 'session-2026-11-25T10-00-abcd1234.jsonl.gz');
  writeFileSync(gz, 'not gzip either');

  for (const [what, path] of [
    ['a corrupt Codex .zst', zst],
    ['a corrupt Gemini .gz', gz],
  ] as const) {
    test(`${what}: replay and status say what is wrong and how to go on`, () => {
      for (const args of [
        ['replay', path, '--json'],
        ['status', path],
      ]) {
        const run = runShim(home, args);
        assert.equal(run.status, 1, `${args[0]}: ${run.stderr}`);
        assert.equal(run.stdout, '');
        const lines = run.stderr.trim().split('\n');
        assert.equal(lines.length, 2, run.stderr);
        assert.match(lines[0]!, /^shim: cannot decompress .*: /);
        assert.doesNotMatch(run.stderr, /bug in shim|unexpected error/);
      }
      assert.deepEqual(
        logLines(home).filter((l) => l.level === 'error'),
        [],
      );
    });
  }
});

describe('Codex hooks: a payload from a newer CLI', () => {
  const line = (type: string, payload: Record<string, unknown>) =>
    JSON.stringify({ timestamp: '2026-11-25T10:00:00.000Z', type, payload });

  test('every event exits 0 with protocol output only, and the checkpoint keeps the work', () => {
    const home = makeWarmHome('shim-codex-newer-');
    const project = join(home, 'project');
    mkdirSync(project);
    const rollout = join(home, `rollout-2026-11-25T10-00-00-${SESSION}.jsonl`);
    writeFileSync(
      rollout,
      [
        line('session_meta', { id: SESSION, cwd: project, cli_version: '0.170.0' }),
        line('a_line_type_from_a_newer_cli', { anything: [1, 2] }),
        line('event_msg', { type: 'user_message', message: 'port the NEWER-7 parser' }),
        line('response_item', {
          type: 'function_call',
          name: 'update_plan',
          call_id: 'c1',
          arguments: JSON.stringify({ plan: [{ step: 'port the lexer', status: 'in_progress' }] }),
        }),
        line('event_msg', {
          type: 'token_count',
          info: {
            last_token_usage: { input_tokens: 9_000, output_tokens: 50, total_tokens: 9_050 },
            model_context_window: 258_400,
          },
        }),
        '{"timestamp":"2026-11-25T10:00:01.000Z","type":"event_msg","payload":{"ty',
      ].join('\n'),
    );
    const newer = {
      session_id: SESSION,
      turn_id: 'turn-1',
      transcript_path: rollout,
      cwd: project,
      model: 'gpt-5.5',
      permission_mode: 'a-mode-shim-does-not-know',
      a_field_from_a_newer_cli: { nested: [1, 2, 3] },
    };
    const events: [string, Record<string, unknown>][] = [
      ['SessionStart', { source: 'startup' }],
      ['UserPromptSubmit', { prompt: 'port the NEWER-7 parser' }],
      ['PostToolUse', { tool_name: 'brand_new_tool', tool_input: { x: 1 }, tool_response: 42 }],
      ['PreCompact', { trigger: 'auto' }],
      ['PostCompact', { trigger: 'auto' }],
      ['Stop', { stop_hook_active: false, last_assistant_message: 'ok' }],
    ];
    for (const [event, fields] of events) {
      const run = runShim(home, ['hook', '--agent', 'codex', event], {
        cwd: project,
        input: JSON.stringify({ ...newer, hook_event_name: event, ...fields }),
      });
      assert.equal(run.status, 0, `${event}: ${run.stderr}`);
      if (run.stdout.trim() !== '') {
        const out = JSON.parse(run.stdout) as unknown;
        assert.equal(typeof out, 'object', `${event}: ${run.stdout}`);
      }
    }
    assert.deepEqual(
      logLines(home).filter((l) => l.level === 'error'),
      [],
    );
    // Nothing lost: PreCompact's checkpoint holds the request and the plan.
    const list = runShim(home, ['list', '--all', '--json']);
    const checkpoints = JSON.parse(list.stdout) as { id: string; sessionId: string }[];
    const ours = checkpoints.find((c) => c.sessionId === SESSION);
    assert.ok(ours, list.stdout);
    const shown = runShim(home, ['show', ours.id]);
    assert.match(shown.stdout, /port the NEWER-7 parser/);
    assert.match(shown.stdout, /port the lexer/);
  });

  test('a broken payload or an unknown event: exit 0, nothing on stdout, one log line', () => {
    const home = makeWarmHome('shim-codex-broken-');
    const broken = runShim(home, ['hook', '--agent', 'codex', 'PostToolUse'], {
      input: '{"session_id": ',
    });
    assert.equal(broken.status, 0);
    assert.equal(broken.stdout, '');
    assert.equal(logLines(home).filter((l) => /not JSON/.test(l.message)).length, 1);
    const unknown = runShim(home, ['hook', '--agent', 'codex', 'NoSuchEvent'], { input: '{}' });
    assert.equal(unknown.status, 0);
    assert.equal(unknown.stdout, '');
    assert.equal(
      logLines(home).filter((l) => /"NoSuchEvent" is not one shim handles/.test(l.message)).length,
      1,
    );
  });
});

describe('Gemini hooks: a payload from a newer CLI', () => {
  test('every event exits 0 with protocol output only, and the checkpoint keeps the work', () => {
    const home = makeWarmHome('shim-gemini-newer-');
    const project = join(home, 'project');
    const chats = join(home, 'gemini', 'tmp', 'project', 'chats');
    mkdirSync(project);
    mkdirSync(chats, { recursive: true });
    const chat = join(chats, 'session-2026-11-25T10-00-abcd1234.jsonl');
    const at = '2026-11-25T10:00:01.000Z';
    writeFileSync(
      chat,
      [
        { sessionId: 'gem-newer-1', projectHash: 'abc', startTime: at, kind: 'main' },
        { id: 'x1', timestamp: at, type: 'a_record_type_from_a_newer_cli', content: 'hm' },
        { id: 'u1', timestamp: at, type: 'user', content: [{ text: 'port the NEWER-9 lexer' }] },
        {
          id: 'm1',
          timestamp: at,
          type: 'gemini',
          content: '',
          model: 'gemini-2.5-pro',
          tokens: { input: 9_000, output: 10, cached: 0, thoughts: 0, tool: 0, total: 9_010 },
          toolCalls: [
            {
              id: 't1',
              name: 'write_todos',
              args: { todos: [{ description: 'port the tokens', status: 'in_progress' }] },
              status: 'success',
              timestamp: at,
            },
          ],
        },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n{"id":"m2","type":"gem',
    );
    const newer = {
      session_id: 'gem-newer-1',
      transcript_path: chat,
      cwd: project,
      timestamp: at,
      a_field_from_a_newer_cli: { nested: [1, 2, 3] },
    };
    const events: [string, Record<string, unknown>][] = [
      ['SessionStart', { source: 'startup' }],
      ['BeforeAgent', { prompt: 'port the NEWER-9 lexer' }],
      ['BeforeTool', { tool_name: 'brand_new_tool', tool_input: { x: 1 } }],
      ['AfterTool', { tool_name: 'brand_new_tool', tool_input: { x: 1 }, tool_response: {} }],
      ['PreCompress', { trigger: 'auto' }],
      ['AfterAgent', { prompt_response: 'ok', stop_hook_active: false }],
      ['SessionEnd', { reason: 'exit' }],
    ];
    for (const [event, fields] of events) {
      const run = runShim(home, ['gemini-hook', event], {
        cwd: project,
        env: { GEMINI_CLI_HOME: join(home, 'gemini-home') },
        input: JSON.stringify({ ...newer, hook_event_name: event, ...fields }),
      });
      assert.equal(run.status, 0, `${event}: ${run.stderr}`);
      if (run.stdout.trim() !== '')
        assert.equal(typeof JSON.parse(run.stdout), 'object', `${event}: ${run.stdout}`);
    }
    assert.deepEqual(
      logLines(home).filter((l) => l.level === 'error'),
      [],
    );
    // Nothing lost: SessionEnd's final checkpoint holds the request and the list.
    const list = runShim(home, ['list', '--all', '--json']);
    const ours = (JSON.parse(list.stdout) as { id: string; sessionId: string }[]).find(
      (c) => c.sessionId === 'gem-newer-1',
    );
    assert.ok(ours, list.stdout);
    const shown = runShim(home, ['show', ours.id]);
    assert.match(shown.stdout, /port the NEWER-9 lexer/);
    assert.match(shown.stdout, /port the tokens/);
  });
});
