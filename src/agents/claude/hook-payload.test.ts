import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HookPayload } from '../agent.ts';
import { parsePayload } from './hook-payload.ts';

/** A PostToolUse payload as Claude Code 2.1 sends it for a Bash call. */
const POST_TOOL_USE = {
  session_id: '0b3c9f4e-5d1a-4c2b-9e8f-7a6d5c4b3a21',
  transcript_path:
    '/home/dev/.claude/projects/-home-dev-app/0b3c9f4e-5d1a-4c2b-9e8f-7a6d5c4b3a21.jsonl',
  cwd: '/home/dev/app',
  permission_mode: 'default',
  hook_event_name: 'PostToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'npm test', description: 'Run the tests' },
  tool_response: { stdout: 'ok', stderr: '', interrupted: false, isImage: false },
  tool_use_id: 'toolu_01ABCdef',
};

const EMPTY_FIELDS: Omit<HookPayload, 'event' | 'raw'> = {
  sessionId: null,
  transcriptPath: null,
  cwd: null,
  source: null,
  reason: null,
  trigger: null,
  prompt: null,
  toolName: null,
  toolInput: null,
  compactSummary: null,
  contextTokens: null,
  fromModel: null,
  toModel: null,
};

describe('parsePayload', () => {
  test('a real-shaped PostToolUse payload', () => {
    const { payload, error } = parsePayload(JSON.stringify(POST_TOOL_USE), 'PostToolUse');
    assert.equal(error, null);
    assert.deepEqual(payload, {
      ...EMPTY_FIELDS,
      event: 'PostToolUse',
      sessionId: POST_TOOL_USE.session_id,
      transcriptPath: POST_TOOL_USE.transcript_path,
      cwd: '/home/dev/app',
      toolName: 'Bash',
      toolInput: { command: 'npm test', description: 'Run the tests' },
      raw: POST_TOOL_USE,
    });
    // Fields without a typed slot stay reachable through raw.
    assert.equal(payload.raw.tool_use_id, 'toolu_01ABCdef');
  });

  test('pretty-printed JSON with a trailing newline parses too', () => {
    const { payload, error } = parsePayload(`${JSON.stringify(POST_TOOL_USE, null, 2)}\n`, 'X');
    assert.equal(error, null);
    assert.equal(payload.sessionId, POST_TOOL_USE.session_id);
  });

  test('the other events fields are read', () => {
    const read = (raw: object) => parsePayload(JSON.stringify(raw), 'X').payload;
    assert.equal(read({ hook_event_name: 'SessionStart', source: 'compact' }).source, 'compact');
    assert.equal(read({ hook_event_name: 'SessionEnd', reason: 'clear' }).reason, 'clear');
    assert.equal(read({ hook_event_name: 'PreCompact', trigger: 'auto' }).trigger, 'auto');
    assert.equal(read({ hook_event_name: 'UserPromptSubmit', prompt: 'fix it' }).prompt, 'fix it');
  });

  test('the payload names the event; the argument is the fallback', () => {
    const named = parsePayload('{"hook_event_name":"PostToolUseFailure"}', 'PostToolUse');
    assert.equal(named.payload.event, 'PostToolUseFailure');
    assert.equal(parsePayload('{}', 'Stop').payload.event, 'Stop');
  });

  test('empty input gives a payload with only the event and an error', () => {
    for (const text of ['', '  \n']) {
      const { payload, error } = parsePayload(text, 'Stop');
      assert.equal(error, 'the hook payload is empty');
      assert.deepEqual(payload, { ...EMPTY_FIELDS, event: 'Stop', raw: {} });
    }
  });

  test('input that is not JSON gives an error naming the parse failure', () => {
    const { payload, error } = parsePayload('{"session_id": "abc"', 'PostToolUse');
    assert.match(error ?? '', /^the hook payload is not JSON: /);
    assert.deepEqual(payload, { ...EMPTY_FIELDS, event: 'PostToolUse', raw: {} });
  });

  test('JSON that is not an object (array, null, string, number) is rejected', () => {
    for (const text of ['[{"session_id":"abc"}]', 'null', '"PostToolUse"', '42']) {
      const { payload, error } = parsePayload(text, 'PostToolUse');
      assert.equal(error, 'the hook payload is not a JSON object', text);
      assert.deepEqual(payload, { ...EMPTY_FIELDS, event: 'PostToolUse', raw: {} }, text);
    }
  });

  test('missing fields are null, without an error', () => {
    const { payload, error } = parsePayload('{"session_id":"abc"}', 'Stop');
    assert.equal(error, null);
    assert.deepEqual(payload, {
      ...EMPTY_FIELDS,
      event: 'Stop',
      sessionId: 'abc',
      raw: { session_id: 'abc' },
    });
  });

  test('fields of the wrong type or empty strings are null', () => {
    const raw = {
      hook_event_name: '',
      session_id: 42,
      transcript_path: '',
      cwd: null,
      tool_name: ['Bash'],
      tool_input: ['npm test'],
      prompt: { text: 'x' },
    };
    const { payload, error } = parsePayload(JSON.stringify(raw), 'PostToolUse');
    assert.equal(error, null);
    assert.deepEqual(payload, { ...EMPTY_FIELDS, event: 'PostToolUse', raw });
  });

  test('a tool_input of null or a string is null', () => {
    for (const toolInput of [null, 'npm test']) {
      const text = JSON.stringify({ tool_name: 'Bash', tool_input: toolInput });
      assert.equal(parsePayload(text, 'PreToolUse').payload.toolInput, null);
    }
  });
});

describe('2.1.330 fields', () => {
  test('PostCompact summary, context tokens and model switches are read', () => {
    const { payload } = parsePayload(
      JSON.stringify({
        hook_event_name: 'PostModelSwitch',
        compact_summary: 'The user asked for X.',
        context_tokens: 181_234.4,
        from_model: 'claude-sonnet-5',
        to_model: 'claude-opus-4-6',
      }),
      'PostModelSwitch',
    );
    assert.equal(payload.compactSummary, 'The user asked for X.');
    assert.equal(payload.contextTokens, 181_234);
    assert.deepEqual([payload.fromModel, payload.toModel], ['claude-sonnet-5', 'claude-opus-4-6']);
  });

  test('a context_tokens that is not a number is ignored', () => {
    const { payload } = parsePayload(JSON.stringify({ context_tokens: 'many' }), 'SessionStart');
    assert.equal(payload.contextTokens, null);
  });
});
