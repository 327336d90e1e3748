/**
 * A mock's held answer (`delayMs`, the kill tests' window) ends with what it holds: when the
 * client hangs up (the CLI was killed) and when the mock closes. A timer left behind kept the
 * Codex, cross-agent and Gemini files alive ~115 s after their last test. No CLI needed.
 *
 *   node scripts/test.mjs test/e2e/mock-holds
 */
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { describe, test } from 'node:test';
import { startMockApi } from './mock-api.ts';
import { startMockGemini } from './mock-gemini.ts';
import { startOpenAiMock } from './openai-mock.ts';

const HOUR = 3_600_000;

type Held = {
  url: string;
  path: string;
  body: unknown;
  requestCount: () => number;
  close: () => Promise<void>;
};

const MOCKS: Record<string, () => Promise<Held>> = {
  'Anthropic Messages': async () => {
    const mock = await startMockApi({
      steps: [{ content: [{ type: 'text', text: 'never sent' }], delayMs: HOUR }],
    });
    return {
      url: mock.url,
      path: '/v1/messages',
      body: { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'Bash' }] },
      requestCount: () => mock.requests.length,
      close: () => mock.close(),
    };
  },
  'OpenAI Responses': async () => {
    const mock = await startOpenAiMock({ steps: [{ text: 'never sent', delayMs: HOUR }] });
    return {
      url: mock.url,
      path: '/v1/responses',
      body: { model: 'm', input: [], tools: [{ type: 'function', name: 'exec_command' }] },
      requestCount: () => mock.requests.length,
      close: () => mock.close(),
    };
  },
  Gemini: async () => {
    const mock = await startMockGemini({
      steps: [{ parts: [{ text: 'never sent' }], delayMs: HOUR }],
    });
    return {
      url: mock.url,
      path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{}] },
      requestCount: () => mock.requests.length,
      close: () => mock.close(),
    };
  },
};

const timers = (): number =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/** Sends the request on its own connection (no keep-alive agent to hold a timer of its own). */
function send(held: Held): ClientRequest {
  const req = request(`${held.url}${held.path}`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json' },
  });
  req.on('error', () => {}); // destroyed on purpose below
  req.end(JSON.stringify(held.body));
  return req;
}

async function until(what: string, holds: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('a held mock answer ends with what it holds', () => {
  for (const [name, start] of Object.entries(MOCKS)) {
    test(`${name}: the hold ends when the client hangs up`, async (t) => {
      const before = timers();
      const held = await start();
      t.after(() => held.close());
      const req = send(held);
      await until('the request arrived', () => held.requestCount() === 1);
      await until('the hold started', () => timers() > before);
      req.destroy();
      await until('the hold ended after the hang-up', () => timers() === before);
    });

    test(`${name}: close() ends a hold whose client is still waiting`, async () => {
      const before = timers();
      const held = await start();
      const req = send(held);
      await until('the request arrived', () => held.requestCount() === 1);
      await held.close();
      req.destroy();
      assert.equal(timers(), before, 'no timer of the mock outlives close()');
    });
  }
});
