/**
 * `shim rescue` with the real Claude Code CLI (pinned) offline: a session refused over the
 * context limit is forked at the last point that fits; the fork's first request to the mock
 * carries the real conversation up to that point (its tool calls) and shim's restore, and not
 * the turn past the limit.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/rescue
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import {
  CLAUDE_BIN,
  claudeEnv,
  claudeInstallProblem,
  createScratch,
  E2E_SKIP,
  installShimHooks,
  runClaude,
} from './claude.ts';
import { startMockApi, type RecordedRequest } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;
const RESTORE_END = 'Carry on with the work from the state above.';

/** The commands of the Bash tool calls a request's conversation holds. */
function toolCommands(request: RecordedRequest): string[] {
  return (request.body?.messages ?? []).flatMap((m) =>
    typeof m.content === 'string'
      ? []
      : m.content.flatMap((b) =>
          b.type === 'tool_use' && typeof (b.input as { command?: unknown })?.command === 'string'
            ? [(b.input as { command: string }).command]
            : [],
        ),
  );
}

describe('shim rescue (real Claude Code CLI)', { skip }, () => {
  test("the fork carries the conversation up to the fork point and shim's restore", async (t) => {
    const scratch = createScratch('shim-e2e-rescue-');
    const mock = await startMockApi({
      steps: [
        {
          content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo ALPHA-1 > a.txt' } }],
        },
        {
          content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo BETA-2 > b.txt' } }],
          usage: { input_tokens: 1000, cache_read_input_tokens: 189_000, output_tokens: 50 },
        },
        {
          error: {
            status: 400,
            type: 'invalid_request_error',
            message: 'prompt is too long: 210000 tokens > 200000 maximum',
          },
        },
      ],
    });
    t.after(async () => {
      await mock.close();
      scratch.cleanup();
    });
    installShimHooks(scratch);
    const env = {
      CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
      DISABLE_COMPACT: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
    };
    const stuck = await runClaude({
      scratch,
      mock,
      prompt: 'Write the KOALA-5 files a.txt and b.txt',
      env,
    });
    assert.ok(stuck.sessionId, 'the session ran');

    mock.reset({
      steps: [],
      final: { content: [{ type: 'text', text: 'Rescued, carrying on.' }] },
    });
    const child = spawn(
      process.execPath,
      [
        BIN,
        'rescue',
        '--session',
        stuck.sessionId,
        '--claude-bin',
        CLAUDE_BIN,
        '--',
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--dangerously-skip-permissions',
      ],
      {
        cwd: scratch.project,
        env: { ...claudeEnv(scratch, mock, env), SHIM_HOME: join(scratch.home, '.shim') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(timer);
    assert.equal(code, 0, `${stderr}\n${stdout.slice(-2000)}`);
    assert.match(stderr, /forking session/);

    const first = mock.messageRequests().find((r) => r.kind === 'step' || r.kind === 'final');
    assert.ok(first, 'the fork made a request');
    const forkSession = first.headers['x-claude-code-session-id'];
    assert.notEqual(forkSession, stuck.sessionId, 'a fork, not the session itself');
    const commands = toolCommands(first);
    assert.ok(
      commands.includes('echo ALPHA-1 > a.txt'),
      `the conversation before the fork: ${commands}`,
    );
    assert.ok(!commands.includes('echo BETA-2 > b.txt'), 'not the turn past the limit');
    assert.ok(
      mock.requestsContaining(RESTORE_END).some((r) => r.index === first.index),
      "shim's restore is in the same request",
    );
    assert.ok(
      mock.requestsContaining('Write the KOALA-5 files').some((r) => r.index === first.index),
    );
  });
});
