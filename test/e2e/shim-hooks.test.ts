/**
 * shim's hooks under the real Claude Code CLI (pinned 2.1.330), offline against the mock
 * Messages API: checkpoints from the hooks `shim install` wires (auto-compaction's checkpoint,
 * handoff and restore: test/e2e/restore.test.ts (c); resume after the CLI was killed mid-task:
 * its (d)), shim's threshold where the CLI compacts, and the work a risky command destroys
 * brought back from its snapshot. Each test takes a few seconds; SHIM_SKIP_E2E=1 skips them.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/shim-hooks
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { BIN } from '../helpers/cli.ts';
import { writeCountTiming } from '../helpers/count-timing.ts';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  installShimHooks,
  readJsonl,
  runClaude,
  waitForBackgroundWork,
  type Scratch,
} from './claude.ts';
import { searchableText, startMockApi, type MockApi, type Scenario } from './mock-api.ts';
import { waitForWarmLook } from '../helpers/warm-look.ts';

const REQUEST = 'Please build the ZEBRA-42 importer and keep the CSV parser strict.';

const skip = E2E_SKIP || claudeInstallProblem() || false;

async function setup(
  t: TestContext,
  scenario: Scenario,
): Promise<{ scratch: Scratch; mock: MockApi; shimHome: string }> {
  const scratch = createScratch('shim-e2e-hooks-');
  const mock = await startMockApi(scenario);
  t.after(async () => {
    await mock.close();
    scratch.cleanup();
  });
  installShimHooks(scratch);
  return { scratch, mock, shimHome: join(scratch.home, '.shim') };
}

type Row = { id: string; session_id: string; triggered_by: string; restored_at: string | null };

function readCheckpoints(shimHome: string): Row[] {
  const path = join(shimHome, 'shim.db');
  if (!existsSync(path)) return [];
  const db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
  try {
    return db
      .prepare(
        'SELECT id, session_id, triggered_by, restored_at FROM checkpoints ORDER BY created_at',
      )
      .all() as Row[];
  } catch (error) {
    // The first hook has made the file and not yet its tables: no checkpoint yet.
    if (/no such table/.test(String(error))) return [];
    throw error;
  } finally {
    db.close();
  }
}

/** What a failed restore assertion needs to be understood from CI's log alone. */
function crashDiagnosis(shimHome: string, mock: MockApi, run: { stderr: string }): string {
  const log = join(shimHome, 'logs', 'shim.log');
  const memory = join(shimHome, 'cache', 'hooks');
  return [
    `checkpoints: ${JSON.stringify(readCheckpoints(shimHome))}`,
    `requests: ${JSON.stringify(mock.messageRequests().map((r) => searchableText(r.body).slice(0, 160)))}`,
    `log: ${existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '(none)'}`,
    `hook memory: ${
      existsSync(memory)
        ? readdirSync(memory)
            .map((f) => `${f} ${readFileSync(join(memory, f), 'utf8').slice(0, 400)}`)
            .join('; ')
        : '(none)'
    }`,
    `stderr: ${run.stderr.slice(0, 600)}`,
  ].join('\n');
}

const bash = (command: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Bash', input: { command } }],
});

describe('shim hooks under the real Claude Code CLI', { skip }, () => {
  test("5. autoCompactWindow in the project settings: shim's threshold is where Claude Code compacts", async (t) => {
    const { scratch, mock, shimHome } = await setup(t, {
      steps: [
        {
          ...bash('echo one'),
          usage: { input_tokens: 1000, cache_read_input_tokens: 40_000, output_tokens: 100 },
        },
        {
          ...bash('echo two'),
          usage: { input_tokens: 1000, cache_read_input_tokens: 79_000, output_tokens: 100 },
        },
        {
          ...bash('echo three'),
          usage: { input_tokens: 1000, cache_read_input_tokens: 89_000, output_tokens: 100 },
        },
      ],
      final: { content: [{ type: 'text', text: 'Finished after compaction.' }] },
      summary: {
        content: [
          { type: 'text', text: '<analysis>ok</analysis>\n<summary>Ran some commands.</summary>' },
        ],
      },
    });
    // The window comes from settings.json, not from the environment: 120,000 − 20,000 reserve
    // − 13,000 = 87,000.
    const settingsPath = join(scratch.project, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsPath, JSON.stringify({ ...settings, autoCompactWindow: 120_000 }));
    const run = await runClaude({ scratch, mock, prompt: REQUEST });
    assert.equal(run.exitCode, 0, describeRun(run));
    const entries = readJsonl<{
      subtype?: string;
      compactMetadata?: { trigger?: string; preTokens?: number };
    }>(run.transcriptPath);
    const boundary = entries.find((e) => e.subtype === 'compact_boundary');
    assert.equal(boundary?.compactMetadata?.trigger, 'auto', 'Claude Code auto-compacted');
    // Claude Code compacted after the 90k response, not after the 80k one.
    assert.ok(boundary!.compactMetadata!.preTokens! >= 87_000, JSON.stringify(boundary));

    const inputsDir = join(shimHome, 'cache', 'inputs');
    const [recordedFile] = readdirSync(inputsDir);
    const recorded = JSON.parse(readFileSync(join(inputsDir, recordedFile!), 'utf8')) as {
      compactThreshold: number;
      settings: Array<{ scope: string; autoCompactWindow: number }>;
    };
    assert.equal(recorded.compactThreshold, 87_000);
    assert.deepEqual(
      recorded.settings.map((f) => [f.scope, f.autoCompactWindow]),
      [['project', 120_000]],
    );

    const replay = spawnSync(process.execPath, [BIN, 'replay', run.transcriptPath, '--json'], {
      encoding: 'utf8',
      env: { ...process.env, SHIM_HOME: shimHome, HOME: scratch.home },
    });
    assert.equal(replay.status, 0, replay.stderr);
    const events = replay.stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            kind: string;
            contextTokens?: number;
            compactThreshold?: number;
            level?: string;
          },
      );
    const turns = events.filter((e) => e.kind === 'turn');
    const at80k = turns.find((e) => e.contextTokens === 80_000);
    const at90k = turns.find((e) => e.contextTokens === 90_000);
    assert.equal(at80k?.compactThreshold, 87_000);
    assert.equal(at80k?.level, 'L2', 'below the threshold, warned');
    assert.equal(at90k?.level, 'L3', 'past it: the compaction Claude Code then performed');
    const compactIndex = events.findIndex((e) => e.kind === 'compact');
    assert.ok(compactIndex > events.indexOf(at90k!), 'the compaction came after the 90k response');
  });

  test('7. a risky command: the work it destroys was snapshotted before it ran, and restore-files brings it back', async (t) => {
    const { scratch, mock, shimHome } = await setup(t, {
      steps: [bash('git reset --hard HEAD')],
      final: { content: [{ type: 'text', text: 'Reset.' }] },
    });
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], {
        cwd: scratch.project,
        encoding: 'utf8',
      });
    writeFileSync(join(scratch.project, 'parser.ts'), 'export const strict = false;\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
    writeFileSync(
      join(scratch.project, 'parser.ts'),
      'export const strict = true; // hours of work\n',
    );
    const run = await runClaude({ scratch, mock, prompt: REQUEST });
    assert.equal(run.exitCode, 0, describeRun(run));
    // The command ran: the uncommitted work is gone from the tree.
    assert.equal(
      readFileSync(join(scratch.project, 'parser.ts'), 'utf8'),
      'export const strict = false;\n',
    );
    // The hook returned once the snapshot and the note were written; the checkpoint was built
    // by its detached builder (waited for, not timed).
    await waitForBackgroundWork(scratch);
    const risky = readCheckpoints(shimHome).find((r) => r.triggered_by === 'risky_operation');
    assert.ok(risky, crashDiagnosis(shimHome, mock, run));
    const restored = spawnSync(
      process.execPath,
      [BIN, 'restore-files', risky.id.slice(0, 8), '--branch', 'rescued', '--json'],
      { cwd: scratch.project, encoding: 'utf8', env: { ...process.env, SHIM_HOME: shimHome } },
    );
    assert.equal(restored.status, 0, restored.stderr);
    assert.equal(
      git('show', 'rescued:parser.ts').stdout,
      'export const strict = true; // hours of work\n',
    );
  });

  test("8. the warm look answers the CLI's PostToolUse hooks: the level is told once, its checkpoint stored", async (t) => {
    // The CLI's model has a 1M window (threshold 967k): 40k, then L1 (700k), then L2 (850k).
    const read = (context: number, n: number) => ({
      content: [{ type: 'tool_use' as const, name: 'Read', input: { file_path: `/etc/hostname` } }],
      usage: { input_tokens: 1000, cache_read_input_tokens: context - 1000, output_tokens: 50 + n },
    });
    const contexts = [40_000, 41_000, 42_000, 700_000, 701_000, 850_000, 851_000, 852_000];
    const { scratch, mock, shimHome } = await setup(t, {
      steps: contexts.map((context, n) => read(context, n)),
      final: { content: [{ type: 'text', text: 'Read them all.' }] },
    });
    const run = await runClaude({ scratch, mock, prompt: REQUEST });
    assert.equal(run.exitCode, 0, describeRun(run));
    await waitForBackgroundWork(scratch);
    // The first full look found no warm process and started one; it answered the calls after it
    // (its count is written once the calls pause).
    const stats = await waitForWarmLook(shimHome, (s) => (s?.answered ?? 0) >= 3);
    assert.ok(stats > 0);
    // The model was told the level in the request after it was reached, once.
    const last = searchableText(mock.messageRequests().at(-1)!.body);
    assert.equal(last.match(/\(L2\)/g)?.length, 1, crashDiagnosis(shimHome, mock, run));
    assert.ok(
      readCheckpoints(shimHome).some((r) => r.triggered_by === 'danger_zone'),
      crashDiagnosis(shimHome, mock, run),
    );
  });

  test('6. a request naming a plan too big for the context left: the warning is in that request', async (t) => {
    const { scratch, mock } = await setup(t, {
      steps: [],
      final: { content: [{ type: 'text', text: 'Noted.' }] },
    });
    // A plan whose first step names a file of ~200k tokens: more than the whole context.
    mkdirSync(join(scratch.project, 'docs'), { recursive: true });
    mkdirSync(join(scratch.project, 'src'), { recursive: true });
    writeFileSync(join(scratch.project, 'src', 'big.ts'), '// data\n'.repeat(100_000));
    writeFileSync(
      join(scratch.project, 'docs', 'plan.md'),
      '# Rework\n\n- [ ] Port `src/big.ts` to streams\n- [ ] Update the tests\n- [ ] Document it\n',
    );
    const run = await runClaude({
      scratch,
      mock,
      prompt: 'Please implement docs/plan.md.',
      env: { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' },
    });
    assert.equal(run.exitCode, 0, describeRun(run));
    const first = mock.firstTurnRequest(run.sessionId);
    assert.ok(first, 'a turn request from the session');
    assert.ok(
      mock
        .requestsContaining('[shim] The plan docs/plan.md is estimated at')
        .some((r) => r.index === first.index),
      'the request carries the note for the model',
    );
    assert.ok(
      mock.requestsContaining('shim shard docs/plan.md').some((r) => r.index === first.index),
      'it says how to split the plan',
    );
  });
});

describe('shim install under the real Claude Code CLI', { skip }, () => {
  test('4. install wires the hooks the CLI runs, a session that runs tools leaves checkpoints in the store; uninstall leaves the user settings exactly as they were', async (t) => {
    const scratch = createScratch('shim-e2e-install-');
    const mock = await startMockApi({
      steps: ['one', 'two', 'three', 'four', 'five', 'six'].map((n) => bash(`echo ${n}`)),
      final: { content: [{ type: 'text', text: 'All done.' }] },
    });
    t.after(async () => {
      await mock.close();
      scratch.cleanup();
    });
    const claudeDir = join(scratch.home, '.claude');
    mkdirSync(claudeDir, { recursive: true });
    const settingsPath = join(claudeDir, 'settings.json');
    const original =
      '{\n    "permissions": { "allow": ["Bash(npm test)"] },\n    "env": { "FOO": "bar" },\n' +
      '    "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "true" } ] } ] },\n' +
      '    "statusLine": { "type": "command", "command": "echo mine" }\n}\n';
    writeFileSync(settingsPath, original);
    const shimHome = join(scratch.home, '.shim');
    const env = {
      ...process.env,
      HOME: scratch.home,
      SHIM_HOME: shimHome,
      CLAUDE_CONFIG_DIR: claudeDir,
    };

    const install = spawnSync(process.execPath, [BIN, 'install', '--agent', 'claude', '--user'], {
      env,
      encoding: 'utf8',
    });
    assert.equal(install.status, 0, install.stderr);
    assert.notEqual(readFileSync(settingsPath, 'utf8'), original);

    // Bash calls only, no file written: the interval checkpoint is the count policy's
    // (`checkpoints.timing: "count"`; the default, "changes", skips one that saves no file change).
    writeCountTiming(shimHome);
    const run = await runClaude({ scratch, mock, prompt: REQUEST });
    assert.equal(run.exitCode, 0, describeRun(run));
    // session_start and tool_call_interval checkpoints are taken in the background.
    await waitForBackgroundWork(scratch);
    const rows = readCheckpoints(shimHome);
    assert.ok(
      rows.some((r) => r.triggered_by === 'session_end') &&
        rows.some((r) => r.triggered_by === 'tool_call_interval'),
      rows.map((r) => r.triggered_by).join(', ') + crashDiagnosis(shimHome, mock, run),
    );
    assert.ok(rows.every((r) => r.session_id === run.sessionId));
    assert.ok(rows.length >= 3, rows.map((r) => r.triggered_by).join(', '));

    const uninstall = spawnSync(
      process.execPath,
      [BIN, 'uninstall', '--agent', 'claude', '--user'],
      {
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(uninstall.status, 0, uninstall.stderr);
    assert.equal(readFileSync(settingsPath, 'utf8'), original);
  });
});
