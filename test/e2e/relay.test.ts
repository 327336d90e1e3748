/**
 * Relay (config "relay": true) with the real Claude Code CLI (pinned) offline and shim's hooks:
 * after `/clear`, SessionStart(clear) injects the cleared session's full state, so the first
 * request of the fresh context carries the user's requests and the work done, not a summary.
 * Without relay the same `/clear` carries none of it.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/relay
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  installShimHooks,
  runClaude,
} from './claude.ts';
import { startMockApi, type MockApi } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;
const REQUEST = 'Port the PLATYPUS-31 parser to the new tokenizer';
const RELAYED = 'relay the work of session';

async function clearAfterWork(t: TestContext, relay: boolean) {
  const scratch = createScratch('shim-e2e-relay-');
  const mock: MockApi = await startMockApi({
    steps: [
      {
        content: [
          { type: 'tool_use', name: 'Bash', input: { command: 'echo parsed > parser.txt' } },
        ],
      },
    ],
    final: { content: [{ type: 'text', text: 'Ported the first half.' }] },
  });
  t.after(async () => {
    await mock.close();
    scratch.cleanup();
  });
  installShimHooks(scratch);
  const shimHome = join(scratch.home, '.shim');
  mkdirSync(shimHome, { recursive: true });
  writeFileSync(join(shimHome, 'config.json'), JSON.stringify({ relay }));
  const work = await runClaude({ scratch, mock, prompt: REQUEST });
  assert.equal(work.exitCode, 0, describeRun(work));

  mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Carrying on.' }] } });
  const cleared = await runClaude({
    scratch,
    mock,
    prompt: '/clear',
    args: ['--continue'],
  });
  assert.equal(cleared.exitCode, 0, describeRun(cleared));
  const next = await runClaude({ scratch, mock, prompt: 'go on', args: ['--continue'] });
  assert.equal(next.exitCode, 0, describeRun(next));
  return { scratch, mock, work, cleared, next };
}

describe('relay after /clear (real Claude Code CLI, shim hooks)', { skip }, () => {
  test('the first request after /clear carries the full state of the cleared session', async (t) => {
    const { mock, work, cleared, next } = await clearAfterWork(t, true);
    t.diagnostic(
      `sessions: work ${work.sessionId} clear ${cleared.sessionId} next ${next.sessionId}`,
    );
    t.diagnostic(`requests: ${mock.requests.map((r) => `${r.index}:${r.kind}`).join(' ')}`);
    const relayed = mock.requestsContaining(RELAYED);
    assert.ok(relayed.length > 0, 'a request after /clear carries the relay');
    const first = relayed[0]!;
    assert.ok(
      mock.requestsContaining(REQUEST).some((r) => r.index === first.index),
      "the relayed request carries the user's request verbatim",
    );
    assert.ok(
      mock.requestsContaining('parser.txt').some((r) => r.index === first.index),
      'and the work done (the file touched)',
    );
  });

  test('without relay, /clear carries none of it', async (t) => {
    const { mock } = await clearAfterWork(t, false);
    assert.deepEqual(mock.requestsContaining(RELAYED), []);
  });
});
