/**
 * Tracker sync under the real Claude Code CLI (pinned 2.1.330), offline: a session on branch
 * `feature/TST-42-…` whose context reaches L2 gets its comment on TST-42 in a local server
 * speaking Linear's GraphQL API (through @linear/sdk), and the handoff shim writes at L2 names
 * TST-42 with its state, read at the session's start.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/tracker-sync
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startFakeLinear } from '../helpers/fake-linear.ts';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  installShimHooks,
  runClaude,
  waitForBackgroundWork,
  type Scratch,
} from './claude.ts';
import { DatabaseSync } from '@photostructure/sqlite';
import { startMockApi } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;

const bash = (command: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Bash', input: { command } }],
});

/** The sync outbox's rows, for a failure message. */
function outbox(scratch: Scratch): string {
  const db = new DatabaseSync(join(scratch.home, '.shim', 'shim.db'), { readOnly: true });
  try {
    return JSON.stringify(
      db.prepare('SELECT action, status, attempts, last_error FROM sync_outbox').all(),
    );
  } catch (error) {
    return String(error);
  } finally {
    db.close();
  }
}

describe('tracker sync under the real Claude Code CLI', { skip }, () => {
  test('a session on feature/TST-42-… reaching L2: the comment on TST-42, the handoff names it', async (t) => {
    const linear = await startFakeLinear();
    linear.issues.push({
      id: 'issue-42',
      identifier: 'TST-42',
      title: 'Build the importer',
      stateId: 'st-progress',
      labelIds: [],
      comments: [],
    });
    const scratch = createScratch('shim-e2e-sync-');
    const mock = await startMockApi({
      steps: [
        // Not a bare sleep: Claude Code 2.1.332 refuses a standalone one.
        bash('sleep 2; echo one'),
        bash('echo two'),
        {
          ...bash('echo three'),
          // ~146k of the 167k threshold: L2 (85–95%).
          usage: { input_tokens: 1000, cache_read_input_tokens: 145_000, output_tokens: 100 },
        },
        bash('echo four'),
      ],
      final: { content: [{ type: 'text', text: 'Importer done.' }] },
    });
    t.after(async () => {
      await mock.close();
      await linear.close();
      scratch.cleanup();
    });
    const git = (...args: string[]) =>
      spawnSync('git', args, {
        cwd: scratch.project,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    writeFileSync(join(scratch.project, 'README.md'), '# importer\n');
    git('add', '.');
    git('commit', '-q', '-m', 'init');
    git('checkout', '-q', '-b', 'feature/TST-42-importer');
    installShimHooks(scratch);
    const run = await runClaude({
      scratch,
      mock,
      prompt: 'Build the CSV importer.',
      env: {
        CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
        LINEAR_API_KEY: linear.apiKey,
        LINEAR_API_URL: linear.url,
      },
    });
    assert.equal(run.exitCode, 0, describeRun(run));
    // The comment goes out from a detached sync worker: read once it (and every hook's
    // background checkpoint) has finished, however long the machine takes.
    await waitForBackgroundWork(scratch);
    const issue = linear.issues[0]!;
    const comment = issue.comments.find((c) => /context at L2/.test(c.body));
    assert.ok(comment, `comments: ${JSON.stringify(issue.comments)}; outbox: ${outbox(scratch)}`);
    assert.match(
      comment.body,
      /^### shim checkpoint #\d+: context at L2 \(\d+% of the auto-compact threshold\)/,
    );
    assert.match(comment.body, /^TST-42 · session `/m);
    assert.equal(issue.comments.filter((c) => /context at L2/.test(c.body)).length, 1);
    assert.ok(
      linear.labels.some((l) => l.name === 'context-checkpointed'),
      outbox(scratch),
    );

    const handoffs = join(scratch.home, '.shim', 'handoffs');
    const documents = readdirSync(handoffs).map((name) =>
      readFileSync(join(handoffs, name), 'utf8'),
    );
    const atL2 = documents.find((d) => /^trigger: danger_zone$/m.test(d) && /^level: L2$/m.test(d));
    assert.ok(
      atL2,
      `handoffs: ${documents.map((d) => d.split('\n').slice(0, 12).join(' | ')).join('\n')}`,
    );
    assert.match(atL2, /^issue: TST-42$/m);
    assert.match(atL2, /^issue_state: "In Progress"$/m);
    assert.match(
      atL2,
      /^Issue: TST-42 "Build the importer" \(In Progress\) — https:\/\/linear.app\/test\/issue\/TST-42$/m,
    );
  });
});
