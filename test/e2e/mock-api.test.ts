/**
 * The mock Messages API on its own (no Claude Code needed, so these run even with SHIM_SKIP_E2E=1):
 * step order, side and summary requests, `@todo`, SSE framing, errors, limits, reset.
 *
 *   node scripts/test.mjs test/e2e/mock-api
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test, type TestContext } from 'node:test';
import {
  MAX_BODY_BYTES,
  PROMPT_TOO_LONG_STEP,
  startMockApi,
  SUMMARY_REQUEST_MARKER,
  type MessagesBody,
  type MockApi,
  type Scenario,
} from './mock-api.ts';

async function mockFor(t: TestContext, scenario: Scenario): Promise<MockApi> {
  const mock = await startMockApi(scenario);
  t.after(() => mock.close());
  return mock;
}

const TOOLS = [{ name: 'Bash' }, { name: 'TaskCreate' }];

function body(text: string, extra: Partial<MessagesBody> = {}): MessagesBody {
  return {
    model: 'claude-test',
    max_tokens: 100,
    messages: [{ role: 'user', content: text }],
    tools: TOOLS,
    ...extra,
  };
}

async function post(mock: MockApi, payload: unknown, path = '/v1/messages?beta=true') {
  const res = await fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** Parses an SSE body into [event, data] pairs. */
function sse(text: string): Array<[string, Record<string, unknown>]> {
  return text
    .trim()
    .split('\n\n')
    .map((frame) => {
      const [eventLine = '', dataLine = ''] = frame.split('\n');
      assert.ok(eventLine.startsWith('event: ') && dataLine.startsWith('data: '), frame);
      return [eventLine.slice(7), JSON.parse(dataLine.slice(6)) as Record<string, unknown>];
    });
}

describe('mock Messages API', () => {
  test('answers steps in order, then final; summary and side requests consume no step', async (t) => {
    const mock = await mockFor(t, {
      steps: [
        { content: [{ type: 'text', text: 'one' }] },
        { content: [{ type: 'text', text: 'two' }] },
      ],
      final: { content: [{ type: 'text', text: 'fin' }] },
      summary: { content: [{ type: 'text', text: '<summary>s</summary>' }] },
      side: { content: [{ type: 'text', text: 'title' }] },
    });
    const texts: string[] = [];
    const ask = async (payload: MessagesBody): Promise<void> => {
      const reply = JSON.parse((await post(mock, payload)).text) as {
        content: Array<{ text: string }>;
      };
      texts.push(reply.content[0]!.text);
    };
    await ask(body('hi'));
    await ask(body(`please. ${SUMMARY_REQUEST_MARKER}.`));
    await ask(body('title?', { tools: [] }));
    await ask(body('next'));
    await ask(body('more'));
    assert.deepEqual(texts, ['one', '<summary>s</summary>', 'title', 'two', 'fin']);
    assert.deepEqual(
      mock.requests.map((r) => [r.kind, r.stepIndex]),
      [
        ['step', 0],
        ['summary', undefined],
        ['side', undefined],
        ['step', 1],
        ['final', undefined],
      ],
    );
    assert.equal(mock.requests[0]!.path, '/v1/messages');
    assert.equal(mock.requests[0]!.url, '/v1/messages?beta=true');
    assert.equal(mock.requests[0]!.headers['x-api-key'], 'k');
    assert.equal(mock.requests[0]!.model, 'claude-test');
  });

  test('streams SSE in the API format, with tool input as input_json_delta', async (t) => {
    const mock = await mockFor(t, {
      steps: [
        {
          content: [
            { type: 'text', text: 'Working on it.' },
            { type: 'tool_use', name: '@todo', input: (name) => ({ tool: name }) },
          ],
          usage: { input_tokens: 7, cache_read_input_tokens: 1000, output_tokens: 42 },
        },
      ],
    });
    const res = await post(mock, body('go', { stream: true }));
    assert.equal(res.status, 200);
    assert.equal(res.type, 'text/event-stream');
    const events = sse(res.text);
    assert.deepEqual(
      events.map(([name]) => name),
      [
        'message_start',
        'ping',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    );
    for (const [name, data] of events) assert.equal(data.type, name);
    const start = events[0]![1].message as { usage: Record<string, number>; model: string };
    assert.equal(start.model, 'claude-test');
    assert.deepEqual(start.usage, {
      input_tokens: 7,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1000,
      output_tokens: 1,
    });
    const text = events
      .filter(([, d]) => (d.delta as { type?: string })?.type === 'text_delta')
      .map(([, d]) => (d.delta as { text: string }).text)
      .join('');
    assert.equal(text, 'Working on it.');
    const toolStart = events[6]![1].content_block as { name: string; id: string; input: object };
    assert.equal(toolStart.name, 'TaskCreate', '@todo becomes the offered TaskCreate');
    assert.deepEqual(toolStart.input, {});
    const json = events
      .filter(([, d]) => (d.delta as { type?: string })?.type === 'input_json_delta')
      .map(([, d]) => (d.delta as { partial_json: string }).partial_json)
      .join('');
    assert.deepEqual(JSON.parse(json), { tool: 'TaskCreate' });
    assert.deepEqual(events[10]![1], {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 42 },
    });
    assert.equal(mock.requests[0]!.reply?.[1]?.id, toolStart.id);
  });

  test('error steps answer in the API error shape; unknown paths get 404', async (t) => {
    const mock = await mockFor(t, { steps: [PROMPT_TOO_LONG_STEP] });
    const res = await post(mock, body('go', { stream: true }));
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.text), {
      type: 'error',
      error: { type: 'invalid_request_error', message: PROMPT_TOO_LONG_STEP.error.message },
    });
    const missing = await fetch(`${mock.url}/v1/models`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { type: string }).type, 'error');
    const head = await fetch(`${mock.url}/api/hello`, { method: 'HEAD' });
    assert.equal(head.status, 404);
    assert.deepEqual(
      mock.requests.map((r) => [r.method, r.path, r.status]),
      [
        ['POST', '/v1/messages', 400],
        ['GET', '/v1/models', 404],
        ['HEAD', '/api/hello', 404],
      ],
    );
  });

  test('requestsContaining searches the system prompt, system messages and tool results', async (t) => {
    const mock = await mockFor(t, { steps: [] });
    await post(mock, body('plain', { system: [{ type: 'text', text: 'SYS-MARK' }] }));
    await post(mock, {
      ...body('x'),
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'system', content: [{ type: 'text', text: 'SessionStart: ROLE-MARK' }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [{ type: 'text', text: 'RESULT-MARK' }],
            },
          ],
        },
      ],
    });
    assert.deepEqual(
      mock.requestsContaining('SYS-MARK').map((r) => r.index),
      [0],
    );
    assert.deepEqual(
      mock.requestsContaining('ROLE-MARK').map((r) => r.index),
      [1],
    );
    assert.deepEqual(
      mock.requestsContaining('RESULT-MARK').map((r) => r.index),
      [1],
    );
    assert.deepEqual(mock.requestsContaining('absent'), []);
  });

  test('refuses bodies over the limit without reading them', async (t) => {
    const mock = await mockFor(t, { steps: [] });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${mock.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-length': MAX_BODY_BYTES + 1, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{');
    });
    assert.equal(status, 413);
    assert.equal(mock.requests[0]!.status, 413);
  });

  test('reset swaps the scenario, rewinds and clears the log', async (t) => {
    const mock = await mockFor(t, { steps: [{ content: [{ type: 'text', text: 'a' }] }] });
    const requests = mock.requests;
    await post(mock, body('1'));
    assert.equal(mock.nextStep, 1);
    mock.reset({ steps: [{ content: [{ type: 'text', text: 'b' }] }] });
    assert.equal(mock.requests.length, 0);
    assert.equal(mock.nextStep, 0);
    const res = await post(mock, body('2'));
    assert.equal(
      (JSON.parse(res.text) as { content: Array<{ text: string }> }).content[0]!.text,
      'b',
    );
    assert.equal(requests, mock.requests);
    assert.equal(requests.length, 1);
  });
});
