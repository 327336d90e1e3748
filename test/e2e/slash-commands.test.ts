/**
 * shim's slash commands under the real Claude Code CLI (pinned 2.1.330), offline against the mock
 * Messages API: the command files `shim install` puts into its plugin, loaded with --plugin-dir,
 * run shim and hand its answer to the model.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/slash-commands
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { quoteForShell } from '../../src/agents/claude/settings/shim-command.ts';
import { slashCommandFiles } from '../../src/agents/claude/settings/slash-commands.ts';
import { BIN } from '../helpers/cli.ts';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  runClaude,
  type Scratch,
} from './claude.ts';
import { startMockApi } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;

function writeCommandsPlugin(scratch: Scratch): string {
  const dir = join(scratch.root, 'shim-commands');
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  mkdirSync(join(dir, 'commands'));
  writeFileSync(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'shim-mod' }));
  const start = `${quoteForShell(process.execPath)} ${quoteForShell(BIN)}`;
  for (const file of slashCommandFiles(start))
    writeFileSync(join(dir, 'commands', file.name), file.text);
  return dir;
}

describe('slash commands under the real Claude Code CLI', { skip }, () => {
  test("/shim-mod:checkpoint, :defer, :handoff and :shard hand shim's answer to the model", async (t) => {
    const scratch = createScratch('shim-e2e-slash-');
    const mock = await startMockApi({
      steps: [],
      final: { content: [{ type: 'text', text: 'Done.' }] },
    });
    t.after(async () => {
      await mock.close();
      scratch.cleanup();
    });
    const plugin = writeCommandsPlugin(scratch);
    const first = await runClaude({ scratch, mock, prompt: 'Please build the ZEBRA-42 importer.' });
    assert.equal(first.exitCode, 0, describeRun(first));
    /** Runs `prompt` with the plugin; true when the model's first request holds `text`. */
    const answers = async (prompt: string, text: string) => {
      mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Shown.' }] } });
      const run = await runClaude({ scratch, mock, prompt, args: ['--plugin-dir', plugin] });
      assert.equal(run.exitCode, 0, describeRun(run));
      const asked = mock.messageRequests()[0];
      return (
        asked !== undefined && mock.requestsContaining(text).some((r) => r.index === asked.index)
      );
    };
    assert.ok(await answers('/shim-mod:checkpoint --status', 'of auto-compact'), 'the status');
    assert.ok(await answers('/shim-mod:checkpoint', 'saved: '), 'a checkpoint');
    assert.ok(await answers('/shim-mod:defer', 'L1/L2 notices held'), 'a deferral');
    assert.ok(await answers('/shim-mod:handoff', 'handoff for checkpoint #'), 'a handoff');
    writeFileSync(join(scratch.project, 'plan.md'), '# Plan\n\n- [ ] one\n- [ ] two\n');
    assert.ok(await answers('/shim-mod:shard plan.md --dry-run', 'shim shard · '), 'the split');
    // Claude Code 2.1.330 names a plugin's commands /<plugin>:<command>, and keeps a bare
    // /checkpoint for itself: the model is never asked.
    mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Shown.' }] } });
    await runClaude({ scratch, mock, prompt: '/checkpoint', args: ['--plugin-dir', plugin] });
    assert.equal(mock.messageRequests().length, 0);
  });
});
