/**
 * The statusline after a compaction, on a session the real Claude Code CLI (pinned) ran offline
 * with shim's hooks: after `/compact` the line counts the compaction and no longer shows the
 * fill from before it (Claude Code still hands the statusline the last response's usage), and
 * auto-compaction turned off in Claude Code's global config (`autoCompactEnabled: false`) reads
 * "auto-compact off". In `-p` mode Claude Code runs no statusline, so the test renders it with
 * the JSON Claude Code gives the statusline, as Claude Code would after each message.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/statusline-compaction
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  installShimHooks,
  readJsonl,
  runClaude,
} from './claude.ts';
import { startMockApi } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;

const LAST_USAGE = { input_tokens: 1000, cache_read_input_tokens: 99_000, output_tokens: 50 };

describe('statusline after a compaction (real Claude Code CLI, shim hooks)', { skip }, () => {
  test('counts the compaction, drops the stale fill, says when auto-compact is off', async (t) => {
    const scratch = createScratch('shim-e2e-statusline-');
    const mock = await startMockApi({
      steps: [
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo one' } }] },
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo two' } }] },
      ],
      final: { content: [{ type: 'text', text: 'Both done.' }], usage: LAST_USAGE },
      summary: {
        content: [{ type: 'text', text: '<summary>Ran echo one and echo two.</summary>' }],
      },
    });
    t.after(async () => {
      await mock.close();
      scratch.cleanup();
    });
    installShimHooks(scratch);
    const env = { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' };
    const first = await runClaude({ scratch, mock, prompt: 'run echo one and two', env });
    assert.equal(first.exitCode, 0, describeRun(first));

    const render = (): string => {
      const r = spawnSync(process.execPath, [BIN, 'statusline'], {
        input: JSON.stringify({
          session_id: first.sessionId,
          transcript_path: first.transcriptPath,
          cwd: scratch.project,
          model: { id: 'claude-opus-5-5', display_name: 'Opus' },
          context_window: {
            context_window_size: 200_000,
            current_usage: {
              input_tokens: LAST_USAGE.input_tokens,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: LAST_USAGE.cache_read_input_tokens,
            },
          },
        }),
        encoding: 'utf8',
        env: {
          ...process.env,
          ...env,
          HOME: scratch.home,
          SHIM_HOME: join(scratch.home, '.shim'),
          CLAUDE_CONFIG_DIR: '',
          NO_COLOR: '1',
          COLUMNS: '200',
        },
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.trim();
    };
    const percentOf = (line: string) => Number(/(\d+)% L\d/.exec(line)?.[1]);

    const before = render();
    t.diagnostic(`before: ${before}`);
    assert.doesNotMatch(before, /compacted/);
    assert.equal(percentOf(before), 60, '100,000 of the 167,000 threshold');

    const compact = await runClaude({
      scratch,
      mock,
      prompt: '/compact',
      args: ['--continue'],
      env,
    });
    assert.equal(compact.exitCode, 0, describeRun(compact));
    assert.equal(compact.sessionId, first.sessionId, '/compact continues the same session');
    assert.ok(
      readJsonl(first.transcriptPath).some((e) => e.subtype === 'compact_boundary'),
      'Claude Code compacted',
    );

    // The statusline is given the same usage as before: no response came since the compaction.
    const after = render();
    t.diagnostic(`after: ${after}`);
    assert.match(after, /\[compacted 1×\]/);
    assert.ok(percentOf(after) < 20, `the fill after the compaction, not before it: ${after}`);

    writeFileSync(
      join(scratch.home, '.claude.json'),
      JSON.stringify({ autoCompactEnabled: false }),
    );
    const off = render();
    t.diagnostic(`auto-compact off: ${off}`);
    assert.match(off, /\[auto-compact off\]/);
    assert.doesNotMatch(off, /to compact\]/);
  });
});
