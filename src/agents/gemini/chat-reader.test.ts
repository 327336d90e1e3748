import assert from 'node:assert/strict';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { SessionState } from '../../core/session.ts';
import { readGeminiChat } from './chat-reader.ts';

/** A chat the real Gemini CLI 0.61.0 wrote offline (test/e2e/mock-gemini.ts): two runs resumed, one compression. */
const REAL_CHAT = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'test',
  'fixtures',
  'gemini',
  'resumed-compressed-0.61.0.jsonl',
);
const SHARED = process.env.SHIM_AGENT_FIXTURES ?? join('/work', 'shared', 'fixtures', 'agents');

const dir = mkdtempSync(join(tmpdir(), 'shim-gemini-reader-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function read(path: string) {
  const turns: number[] = [];
  const compactions: Array<{ line: number; preTokens: number | null }> = [];
  const { cursor } = readGeminiChat(path, null, {
    finalize: true,
    listener: {
      onResponse: (r) => turns.push(r.contextTokens),
      onCompaction: (c) => compactions.push({ line: c.line, preTokens: c.preTokens }),
    },
  });
  return { state: cursor.state, turns, compactions };
}

const header = (id = 'sess-1') =>
  JSON.stringify({
    sessionId: id,
    projectHash: 'abc',
    startTime: '2026-11-25T10:00:00.000Z',
    kind: 'main',
  });
const user = (id: string, text: string) =>
  JSON.stringify({ id, timestamp: '2026-11-25T10:00:01.000Z', type: 'user', content: [{ text }] });
const model = (id: string, input: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    timestamp: '2026-11-25T10:00:02.000Z',
    type: 'gemini',
    content: '',
    tokens: { input, output: 10, cached: 0, thoughts: 0, tool: 0, total: input + 10 },
    model: 'gemini-2.5-pro',
    ...extra,
  });

function chat(name: string, lines: string[], end = '\n'): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + end);
  return path;
}

describe('Gemini chat reader', () => {
  test('a chat of the real CLI: the context of each response, the compression, requests, todos', () => {
    const { state, turns, compactions } = read(REAL_CHAT);
    assert.equal(state.agent, 'gemini');
    assert.equal(state.sessionId, '071c8f8b-c20a-4dc3-b5ee-f4d826d5c890');
    assert.deepEqual(turns, [12_000, 18_000, 25_000, 30_000, 31_000, 9_000]);
    // The snapshot in `$set.messages` (line 35) marks it; the context before was 31,000.
    assert.deepEqual(compactions, [{ line: 35, preTokens: 31_000 }]);
    assert.deepEqual(
      state.requestLog.map((r) => r.text),
      ['Please do the first task', 'Now the second request', 'Third request please'],
    );
    assert.deepEqual(state.todos, [
      { content: 'write parser', status: 'in_progress' },
      { content: 'test it', status: 'pending' },
    ]);
    assert.equal(state.toolCalls, 3);
    assert.equal(state.cwd, '/tmp/gx/run1/project');
    assert.equal(state.model, 'gemini-2.5-pro');
  });

  test('read in pieces, the chat folds to the same state as read whole', () => {
    const whole = read(REAL_CHAT).state;
    const bytes = readFileSync(REAL_CHAT);
    const path = join(dir, 'pieces.jsonl');
    writeFileSync(path, '');
    let cursor = null;
    for (let at = 0; at < bytes.length; at += 997) {
      appendFileSync(path, bytes.subarray(at, Math.min(bytes.length, at + 997)));
      cursor = readGeminiChat(path, cursor).cursor;
    }
    const pieces = cursor!.state as SessionState;
    for (const key of [
      'turns',
      'toolCalls',
      'promptCount',
      'compactionCount',
      'todos',
      'requestLog',
    ] as const)
      assert.deepEqual(pieces[key], whole[key], key);
    assert.equal(pieces.current?.contextTokens ?? pieces.lastResponse?.contextTokens, 9_000);
  });

  test('where it was: shell commands with their exit codes (non-zero is a failure), a cancelled call no failure, the newest error', () => {
    const call = (
      id: string,
      name: string,
      args: Record<string, unknown>,
      status: string | null,
      output: string,
    ) => ({
      id,
      name,
      args,
      status,
      result: [
        {
          functionResponse: {
            id,
            name,
            response: status === 'error' ? { error: output } : { output },
          },
        },
      ],
      timestamp: '2026-11-25T10:00:03.000Z',
    });
    const path = chat('where.jsonl', [
      header('where-1'),
      user('u1', 'build it'),
      model('m1', 1_000, {
        toolCalls: [
          call(
            't2',
            'read_file',
            { file_path: '/p/missing.ts' },
            'error',
            'File not found: /p/missing.ts',
          ),
          call(
            't1',
            'run_shell_command',
            { command: 'npm run build' },
            'success',
            'Output: error TS2304\nExit Code: 2',
          ),
          call(
            't3',
            'run_shell_command',
            { command: 'rm -rf dist' },
            'cancelled',
            '[Operation Cancelled] Reason: User denied execution.',
          ),
          call('t4', 'run_shell_command', { command: 'npm test' }, null, ''),
        ],
      }),
    ]);
    const { state } = read(path);
    assert.deepEqual(
      state.commands.map((c) => [c.command, c.status, c.exitCode]),
      [
        ['npm run build', 'failed', 2],
        ['rm -rf dist', 'stopped', null],
        ['npm test', 'running', null],
      ],
    );
    // Gemini CLI marks a command that exited non-zero `success`: its exit code says it failed.
    assert.equal(state.lastFailure?.tool, 'run_shell_command');
    assert.equal(state.lastFailure?.target, 'npm run build');
    assert.equal(state.lastFailure?.exitCode, 2);
    assert.match(state.lastFailure?.output ?? '', /error TS2304/);
  });

  test('a rewound chat ($rewindTo) forgets the dropped messages, read whole or incrementally', () => {
    const lines = [
      header(),
      user('u1', 'first request'),
      model('m1', 1_000),
      user('u2', 'a request that gets rewound'),
      model('m2', 2_000, {
        toolCalls: [
          {
            id: 't1',
            name: 'write_file',
            args: { file_path: '/p/x.ts' },
            status: 'success',
            result: [],
          },
        ],
      }),
    ];
    const path = chat('rewind.jsonl', lines);
    const early = readGeminiChat(path, null);
    assert.equal(early.cursor.state.promptCount, 2);
    appendFileSync(
      path,
      `${JSON.stringify({ $rewindTo: 'u2' })}\n${user('u3', 'the request instead')}\n${model('m3', 1_500)}\n`,
    );
    const later = readGeminiChat(path, early.cursor, { finalize: true });
    assert.equal(later.restarted, true);
    const whole = read(path).state;
    for (const state of [later.cursor.state, whole]) {
      assert.deepEqual(
        state.requestLog.map((r) => r.text),
        ['first request', 'the request instead'],
      );
      assert.deepEqual(state.filesChanged, []);
      assert.equal(state.turns, 2);
      assert.equal(state.lastResponse?.contextTokens, 1_500);
    }
  });

  test('a re-appended message (same id) adds only what is new: tokens once, then its tool calls', () => {
    const call = { id: 'c1', name: 'run_shell_command', args: { command: 'npm test' } };
    const path = chat('upsert.jsonl', [
      header(),
      user('u1', 'run the tests'),
      model('m1', 5_000),
      model('m1', 5_000, { toolCalls: [call] }),
      model('m1', 5_000, {
        toolCalls: [
          {
            ...call,
            status: 'error',
            result: [
              {
                functionResponse: {
                  id: 'c1',
                  name: 'run_shell_command',
                  response: { output: '1 failing' },
                },
              },
            ],
          },
        ],
      }),
    ]);
    const { state, turns } = read(path);
    assert.deepEqual(turns, [5_000]);
    assert.equal(state.toolCalls, 1);
    assert.equal(state.toolFailures, 1);
    assert.equal(state.pendingTools.length, 0);
    assert.equal(state.checks[0]?.kind, 'test');
    assert.equal(state.checks[0]?.success, false);
    assert.match(state.checks[0]?.output ?? '', /1 failing/);
  });

  test('unknown record types are skipped, garbage is counted, a truncated last line waits', () => {
    const path = chat(
      'odd.jsonl',
      [
        header(),
        JSON.stringify({ $future: { anything: 1 } }),
        JSON.stringify({ kind: 'something-new' }),
        'not json at all',
        user('u1', 'hello <hook_context>shim restore</hook_context>'),
        model('m1', 3_000),
        model('m2', 4_000).slice(0, 40),
      ],
      '',
    );
    const first = readGeminiChat(path, null);
    const state = first.cursor.state;
    assert.equal(state.parse.badLines, 1);
    assert.deepEqual(
      state.requestLog.map((r) => r.text),
      ['hello'],
    );
    assert.equal(state.turns, 1);
    // The rest of the torn line arrives: it is read then, once.
    appendFileSync(path, `${model('m2', 4_000).slice(40)}\n`);
    const next = readGeminiChat(path, first.cursor, { finalize: true });
    assert.equal(next.restarted, false);
    assert.equal(next.cursor.state.turns, 2);
    assert.equal(next.cursor.state.lastResponse?.contextTokens, 4_000);
  });

  test('without a marker, a drop of the context by more than half is a compression', () => {
    const path = chat('drop.jsonl', [
      header(),
      user('u1', 'go'),
      model('m1', 700_000),
      user('u2', 'more'),
      model('m2', 140_000),
    ]);
    const { compactions, turns } = read(path);
    assert.deepEqual(turns, [700_000, 140_000]);
    assert.deepEqual(compactions, [{ line: 5, preTokens: 700_000 }]);
  });

  test(
    'real chats of other projects (shared fixtures): requests and tool calls as counted by hand',
    { skip: !existsSync(join(SHARED, 'gemini')) && `no shared fixtures at ${SHARED}` },
    () => {
      const expected: Record<string, { prompts: number; tools: number }> = {
        'vibecmp__session-2026-04-25T08-23-e435870b.jsonl.gz': { prompts: 3, tools: 7 },
        'ren__session-2026-01-03T08-29-d667b4d8.json.gz': { prompts: 4, tools: 13 },
        'hyde__session-2025-09-25T09-04-e2963405.json.gz': { prompts: 6, tools: 0 },
      };
      for (const [name, want] of Object.entries(expected)) {
        const { state } = read(join(SHARED, 'gemini', name));
        assert.equal(state.promptCount, want.prompts, name);
        assert.equal(state.toolCalls, want.tools, name);
      }
    },
  );
});
