import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseStreamLine, type AgentEvent } from './stream-json.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'stream-json');

function fixtureLines(name: string): string[] {
  return readFileSync(join(FIXTURES, name), 'utf8').split('\n');
}

function parseFixture(name: string): AgentEvent[] {
  return fixtureLines(name).flatMap(parseStreamLine);
}

const usage = (input: number, cacheCreation: number, cacheRead: number, output = 1) => ({
  input,
  cacheCreation,
  cacheRead,
  output,
  cleared: 0,
});

const NO_USAGE = usage(0, 0, 0, 0);

const init = (sessionId: string, cwd: string): AgentEvent => ({
  kind: 'init',
  sessionId,
  model: 'claude-opus-5-5',
  cwd,
  cliVersion: '2.1.330',
});

describe('parseStreamLine on captured stream-json', () => {
  it('reads tool-calls.jsonl: one event per content block, failing tool, result', () => {
    const sessionId = 'ad7651b7-d0ce-494f-9064-0c96a1c53e44';
    const response = {
      kind: 'response',
      sessionId,
      model: 'claude-opus-5-5',
      sidechain: false,
    } as const;
    assert.deepEqual(parseFixture('tool-calls.jsonl'), [
      init(sessionId, '/tmp/shim-e2e-gJFPXh/project'),
      {
        ...response,
        messageId: 'msg_mock_2',
        usage: usage(1200, 3000, 9000),
        contextTokens: 13200,
        text: 'Writing the file.',
        toolUses: [],
      },
      {
        ...response,
        messageId: 'msg_mock_2',
        usage: usage(1200, 3000, 9000),
        contextTokens: 13200,
        text: '',
        toolUses: [{ id: 'toolu_mock_1', name: 'Bash', input: { command: 'echo hi > out.txt' } }],
      },
      {
        kind: 'tool_result',
        toolUseId: 'toolu_mock_1',
        isError: false,
        text: '(Bash completed with no output)',
        sidechain: false,
      },
      {
        ...response,
        messageId: 'msg_mock_4',
        usage: usage(30, 200, 13000),
        contextTokens: 13230,
        text: '',
        toolUses: [{ id: 'toolu_mock_3', name: 'Bash', input: { command: 'false' } }],
      },
      {
        kind: 'tool_result',
        toolUseId: 'toolu_mock_3',
        isError: true,
        text: 'Exit code 1',
        sidechain: false,
      },
      {
        ...response,
        messageId: 'msg_mock_5',
        usage: usage(20, 100, 13300),
        contextTokens: 13420,
        text: 'All done. <promise>COMPLETE</promise>',
        toolUses: [],
      },
      {
        kind: 'result',
        sessionId,
        isError: false,
        subtype: 'success',
        text: 'All done. <promise>COMPLETE</promise>',
        costUsd: 0.03046,
        numTurns: 3,
        durationMs: 1133,
        terminalReason: 'completed',
        apiErrorStatus: null,
        errors: [],
      },
    ]);
  });

  it('reads api-error-429.jsonl: a synthetic rate_limit message, then an error result', () => {
    const sessionId = '2342ff84-95e6-462f-8cb9-317794c8e7f6';
    const text =
      'API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit';
    assert.deepEqual(parseFixture('api-error-429.jsonl'), [
      init(sessionId, '/tmp/shim-e2e-1oKmvC/project'),
      { kind: 'api_error', status: 429, error: 'rate_limit', apiError: null, text, resetsAt: null },
      {
        kind: 'result',
        sessionId,
        isError: true,
        subtype: 'success',
        text,
        costUsd: 0,
        numTurns: 1,
        durationMs: 680,
        terminalReason: 'api_error',
        apiErrorStatus: 429,
        errors: [],
      },
    ]);
  });

  it('reads api-error-529.jsonl as a server_error', () => {
    const events = parseFixture('api-error-529.jsonl');
    assert.equal(events.length, 3);
    const error = events[1];
    assert.equal(error?.kind, 'api_error');
    assert.deepEqual(
      { ...error, text: '' },
      {
        kind: 'api_error',
        status: 529,
        error: 'server_error',
        apiError: null,
        text: '',
        resetsAt: null,
      },
    );
    assert.match(error.text, /^API Error: 529 Overloaded/);
    assert.deepEqual(
      events[2]?.kind === 'result' && [events[2].isError, events[2].apiErrorStatus],
      [true, 529],
    );
  });

  it('reads usage-limit.jsonl: rejected rate limit and the usage_limit_reached message', () => {
    const sessionId = '2342ff84-95e6-462f-8cb9-317794c8e7f6';
    const text = "You've hit your limit · resets 3pm (UTC)";
    assert.deepEqual(parseFixture('usage-limit.jsonl'), [
      init(sessionId, '/tmp/shim-e2e-1oKmvC/project'),
      { kind: 'rate_limit', status: 'rejected', resetsAt: 1795000000000, limitType: 'five_hour' },
      {
        kind: 'api_error',
        status: 429,
        error: 'rate_limit',
        apiError: 'usage_limit_reached',
        text,
        resetsAt: 1795000000000,
      },
      {
        kind: 'result',
        sessionId,
        isError: true,
        subtype: 'success',
        text,
        costUsd: 0,
        numTurns: 1,
        durationMs: 680,
        terminalReason: 'api_error',
        apiErrorStatus: 429,
        errors: [],
      },
    ]);
  });

  it('reads auto-compact.jsonl: compacting, the boundary, and the summary prompt yields nothing', () => {
    const events = parseFixture('auto-compact.jsonl');
    assert.deepEqual(
      events.map((e) => e.kind),
      [
        'init',
        'response',
        'tool_result',
        'response',
        'tool_result',
        'response',
        'tool_result',
        'compacting',
        'other',
        'compact',
        'response',
        'result',
      ],
    );
    const contexts = events.flatMap((e) => (e.kind === 'response' ? [e.contextTokens] : []));
    assert.deepEqual(contexts, [50, 50, 169900, 50]);
    assert.deepEqual(events[8], { kind: 'other', type: 'system', subtype: 'status' });
    assert.deepEqual(events[9], {
      kind: 'compact',
      trigger: 'auto',
      preTokens: 169930,
      postTokens: 2580,
    });
  });
});

describe('parseStreamLine on lines the captures lack', () => {
  it('reads an api_retry', () => {
    const line = JSON.stringify({
      type: 'system',
      subtype: 'api_retry',
      attempt: 2,
      max_retries: 10,
      retry_delay_ms: 1093.5,
      error_status: 529,
      error: 'server_error',
      session_id: 's',
      uuid: 'u',
    });
    assert.deepEqual(parseStreamLine(line), [
      {
        kind: 'api_retry',
        attempt: 2,
        maxRetries: 10,
        delayMs: 1093.5,
        errorStatus: 529,
        error: 'server_error',
      },
    ]);
  });

  it('marks subagent output as sidechain and reads text-block tool results', () => {
    const assistant = JSON.stringify({
      type: 'assistant',
      parent_tool_use_id: 'toolu_task',
      message: { id: 'm', content: [{ type: 'text', text: 'sub' }], usage: {} },
    });
    const [response] = parseStreamLine(assistant);
    assert.equal(response?.kind === 'response' && response.sidechain, true);
    const user = JSON.stringify({
      type: 'user',
      parent_tool_use_id: 'toolu_task',
      message: {
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'x' }] },
          { type: 'text', text: 'not a result' },
          { type: 'tool_result', tool_use_id: 'b', content: 'y'.repeat(5000), is_error: true },
        ],
      },
    });
    assert.deepEqual(parseStreamLine(user), [
      { kind: 'tool_result', toolUseId: 'a', isError: false, text: 'x', sidechain: true },
      {
        kind: 'tool_result',
        toolUseId: 'b',
        isError: true,
        text: 'y'.repeat(2000),
        sidechain: true,
      },
    ]);
  });

  it('treats a synthetic message with an error field as an api_error', () => {
    const line = JSON.stringify({
      type: 'assistant',
      error: 'server_error',
      message: { model: '<synthetic>', content: [{ type: 'text', text: 'boom' }] },
    });
    assert.deepEqual(parseStreamLine(line), [
      {
        kind: 'api_error',
        status: null,
        error: 'server_error',
        apiError: null,
        text: 'boom',
        resetsAt: null,
      },
    ]);
  });

  it('reads an error_during_execution result with its errors', () => {
    const line = JSON.stringify({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      errors: ['boom', 3, null, 'again'],
    });
    const [result] = parseStreamLine(line);
    assert.equal(result?.kind, 'result');
    assert.deepEqual(result.kind === 'result' && result.errors, ['boom', 'again']);
    assert.equal(result.kind === 'result' && result.text, '');
  });

  it('reports unknown types and system subtypes as other', () => {
    assert.deepEqual(parseStreamLine('{"type":"stream_event","event":{}}'), [
      { kind: 'other', type: 'stream_event', subtype: null },
    ]);
    assert.deepEqual(parseStreamLine('{"type":"system","subtype":"hook_response"}'), [
      { kind: 'other', type: 'system', subtype: 'hook_response' },
    ]);
    assert.deepEqual(parseStreamLine('{"no_type":1}'), [
      { kind: 'other', type: '', subtype: null },
    ]);
  });
});

describe('parseStreamLine on malformed input', () => {
  it('returns [] for blank, non-JSON, truncated and non-object lines', () => {
    const tornLine = fixtureLines('tool-calls.jsonl')[1]?.slice(0, 200) ?? '';
    for (const line of ['', '   ', '\r', 'not json', tornLine, '[]', '[{"type":"result"}]']) {
      assert.deepEqual(parseStreamLine(line), [], JSON.stringify(line.slice(0, 40)));
    }
    for (const line of ['null', '42', '"assistant"', 'true']) {
      assert.deepEqual(parseStreamLine(line), [], line);
    }
  });

  it('turns mistyped fields into null, 0 or empty values', () => {
    const assistant = JSON.stringify({
      type: 'assistant',
      session_id: 7,
      parent_tool_use_id: null,
      message: {
        id: null,
        model: 5,
        usage: {
          input_tokens: '100',
          cache_creation_input_tokens: null,
          cache_read_input_tokens: 'INFINITY',
          output_tokens: 4,
        },
        content: [
          null,
          'text',
          { type: 'text', text: 5 },
          { type: 'tool_use', id: 9, name: null, input: 'ls' },
          { type: 'tool_use', id: 't', name: 'Read', input: [1] },
        ],
      },
    }).replace('"INFINITY"', '1e400'); // JSON.parse reads 1e400 as Infinity
    assert.deepEqual(parseStreamLine(assistant), [
      {
        kind: 'response',
        sessionId: null,
        messageId: '',
        model: null,
        usage: usage(0, 0, 0, 4),
        contextTokens: 0,
        text: '',
        toolUses: [
          { id: '', name: '', input: {} },
          { id: 't', name: 'Read', input: {} },
        ],
        sidechain: false,
      },
    ]);
    assert.deepEqual(parseStreamLine('{"type":"assistant","message":null}'), [
      { kind: 'other', type: 'assistant', subtype: null },
    ]);
    assert.deepEqual(parseStreamLine('{"type":"assistant","message":{"usage":[1]}}'), [
      {
        kind: 'response',
        sessionId: null,
        messageId: '',
        model: null,
        usage: NO_USAGE,
        contextTokens: 0,
        text: '',
        toolUses: [],
        sidechain: false,
      },
    ]);
    assert.deepEqual(parseStreamLine('{"type":"user","message":{"content":"typed prompt"}}'), []);
    assert.deepEqual(parseStreamLine('{"type":"user","message":"x"}'), []);
    assert.deepEqual(
      parseStreamLine('{"type":"rate_limit_event","rate_limit_info":{"resetsAt":"soon"}}'),
      [{ kind: 'rate_limit', status: '', resetsAt: null, limitType: null }],
    );
    assert.deepEqual(parseStreamLine('{"type":"system","subtype":"compact_boundary"}'), [
      { kind: 'compact', trigger: '', preTokens: null, postTokens: null },
    ]);
    assert.deepEqual(parseStreamLine('{"type":"system","subtype":"init"}'), [
      { kind: 'init', sessionId: '', model: null, cwd: null, cliVersion: null },
    ]);
    assert.deepEqual(
      parseStreamLine(
        '{"type":"result","total_cost_usd":"0.1","num_turns":null,"duration_ms":{},"errors":"x","is_error":"yes"}',
      ),
      [
        {
          kind: 'result',
          sessionId: null,
          isError: false,
          subtype: '',
          text: '',
          costUsd: null,
          numTurns: null,
          durationMs: null,
          terminalReason: null,
          apiErrorStatus: null,
          errors: [],
        },
      ],
    );
    assert.deepEqual(
      parseStreamLine(
        '{"type":"assistant","is_api_error_message":true,"api_error_status":"429","api_error_params":{"rate_limit_info":null},"message":{}}',
      ),
      [{ kind: 'api_error', status: null, error: null, apiError: null, text: '', resetsAt: null }],
    );
  });

  it('survives deep nesting and a huge line', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    assert.deepEqual(parseStreamLine(deep), []);
    const deepObject = `{"type":"assistant","message":{"content":${deep}}}`;
    assert.equal(parseStreamLine(deepObject).length, 1);
    const big = 'x'.repeat(20_000_000);
    const hugeResult = JSON.stringify({
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 't', content: big }] },
    });
    const [event] = parseStreamLine(hugeResult);
    assert.equal(event?.kind === 'tool_result' && event.text.length, 2000);
    assert.deepEqual(parseStreamLine(hugeResult.slice(0, -3)), []);
  });
});
