/**
 * `shim loop` rescues its own Claude Code session over the context window, with the real CLI
 * (pinned) offline: the turn is refused ("prompt is too long", compaction disabled), and instead of
 * a crash restart the loop forks the session at the last message that fits
 * (`--resume --resume-session-at --fork-session`) with shim's restore, as `shim rescue` does. The
 * fork's first request carries the real conversation (its tool calls) and the restore; the run
 * completes in the fork.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/loop-rescue
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import {
  CLAUDE_BIN,
  claudeEnv,
  claudeInstallProblem,
  createScratch,
  E2E_SKIP,
  readJsonl,
} from './claude.ts';
import { PROMPT_TOO_LONG, startMockApi, type RecordedRequest } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;
const MARKER = 'SHIM_LOOP_COMPLETE';
const RESTORE_END = 'Carry on with the work from the state above.';

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

describe(
  'shim loop rescues its session over the context window (real Claude Code CLI)',
  { skip },
  () => {
    test('the loop forks the session with the restore instead of restarting it', async (t) => {
      const scratch = createScratch('shim-e2e-looprescue-');
      const mock = await startMockApi({
        steps: [
          {
            content: [
              { type: 'tool_use', name: 'Bash', input: { command: 'echo ALPHA-1 > a.txt' } },
            ],
          },
          {
            content: [
              { type: 'tool_use', name: 'Bash', input: { command: 'echo BETA-2 > b.txt' } },
            ],
            // Below the loop's own threshold (--threshold 100): the API refuses the next one anyway.
            usage: { input_tokens: 1000, cache_read_input_tokens: 140_000, output_tokens: 50 },
          },
          { error: { status: 400, type: 'invalid_request_error', message: PROMPT_TOO_LONG } },
        ],
        final: { content: [{ type: 'text', text: `Both files are written.\n${MARKER}` }] },
      });
      t.after(async () => {
        await mock.close();
        scratch.cleanup();
      });
      const shimHome = join(scratch.root, 'shim-home');
      const env = claudeEnv(scratch, mock, {
        SHIM_HOME: shimHome,
        CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
        DISABLE_COMPACT: '1',
        CLAUDE_CODE_MAX_RETRIES: '0',
        NO_COLOR: '1',
      });
      const child = spawn(
        process.execPath,
        [
          BIN,
          'loop',
          '--goal',
          'Write the KOALA-5 files a.txt and b.txt',
          '--claude-bin',
          CLAUDE_BIN,
          '--threshold',
          '100',
          '--iteration-timeout',
          '90s',
          '--json',
          '--',
          '--dangerously-skip-permissions',
        ],
        { cwd: scratch.project, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const timer = setTimeout(() => child.kill('SIGKILL'), 200_000);
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      clearTimeout(timer);
      const runDir = join(shimHome, 'loops');
      const events = existsSync(runDir)
        ? readJsonl<{ name: string; data: Record<string, unknown> }>(
            join(runDir, readdirSync(runDir)[0]!, 'events.jsonl'),
          )
        : [];
      const names = events.map((e) => e.name);
      assert.equal(code, 0, `${stderr}\n${names.join(' ')}`);

      const result = JSON.parse(stdout) as {
        run: { status: string; sessionId: string };
        iterations: Array<{ outcome: string; sessionId: string | null }>;
      };
      assert.equal(result.run.status, 'completed');
      assert.deepEqual(
        result.iterations.map((i) => i.outcome),
        ['context_overflow', 'finished'],
      );
      const rescue = events.find((e) => e.name === 'loop.rescue');
      assert.ok(rescue, names.join(' '));
      assert.ok(!names.includes('loop.crash_restart'), 'not treated as a crash');
      assert.ok(!names.includes('loop.summary_written'), 'no fresh session with a summary');
      const overflowSession = result.iterations[0]!.sessionId;
      assert.ok(overflowSession);
      assert.equal(rescue.data.sessionId, overflowSession);

      // The fork's first request: a new session holding the real conversation and the restore.
      const forked = mock
        .messageRequests()
        .find(
          (r) =>
            (r.kind === 'step' || r.kind === 'final') &&
            r.body?.messages &&
            r.index > 0 &&
            mock.requestsContaining(RESTORE_END).some((x) => x.index === r.index),
        );
      assert.ok(forked, "a request carries shim's restore");
      assert.notEqual(forked.headers['x-claude-code-session-id'], overflowSession, 'a fork');
      assert.ok(toolCommands(forked).includes('echo ALPHA-1 > a.txt'), 'the conversation is kept');
      assert.ok(
        mock.requestsContaining('Write the KOALA-5 files').some((r) => r.index === forked.index),
      );
      assert.equal(result.run.sessionId, forked.headers['x-claude-code-session-id']);
    });
  },
);
