/**
 * Claude Code mods (an in-process "hooks module" in a plugin) under the real CLI (pinned
 * 2.1.330), offline against the mock Messages API: what loads, what a handler sees, what a
 * failing handler does. The facts these tests pin down are in docs/claude-code.md, "Mods".
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/mod
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  readDebugLog,
  runClaude,
  type Scratch,
} from './claude.ts';
import { DatabaseSync } from '@photostructure/sqlite';
import { startMockApi, type Scenario } from './mock-api.ts';
import { BIN } from '../helpers/cli.ts';
import { REPO_ROOT } from '../helpers/store.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;

/** A plugin whose hooks module is `register` (the body of `export function register(on)`). */
function writeModPlugin(scratch: Scratch, name: string, register: string): string {
  const dir = join(scratch.root, `${name}-plugin`);
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  mkdirSync(join(dir, 'hooks'));
  writeFileSync(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name }));
  writeFileSync(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./register.js'] }));
  writeFileSync(join(dir, 'hooks', 'register.js'), register);
  return dir;
}

/** Runs one prompt with the plugin loaded and --debug; returns the run and its debug log. */
async function runWithPlugin(
  t: TestContext,
  scratch: Scratch,
  plugin: string,
  extraArgs: string[] = [],
  scenario: Scenario = { steps: [], final: { content: [{ type: 'text', text: 'Done.' }] } },
  env: Record<string, string> = {},
) {
  const mock = await startMockApi(scenario);
  t.after(async () => {
    await mock.close();
    scratch.cleanup();
  });
  const run = await runClaude({
    scratch,
    mock,
    prompt: 'Please build the ZEBRA-42 importer and keep the CSV parser strict.',
    args: ['--plugin-dir', plugin, '--debug', ...extraArgs],
    env,
  });
  const debug = readDebugLog(scratch);
  return { run, debug, mock };
}

/** shim's own mod as the plugin carries it (dist/shim-mod.js), with no command hooks at all. */
function writeShimMod(scratch: Scratch): string {
  return writeModPlugin(
    scratch,
    'shim',
    readFileSync(join(REPO_ROOT, 'dist', 'shim-mod.js'), 'utf8'),
  );
}

/** `--mcp-config` with shim's MCP server (named "shim", as `shim install` registers it). */
function writeShimMcp(scratch: Scratch): string {
  const config = join(scratch.root, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        shim: {
          command: process.execPath,
          args: [BIN, 'mcp'],
          env: { SHIM_HOME: join(scratch.home, '.shim') },
        },
      },
    }),
  );
  return config;
}

const bashAt = (command: string, context: number) => ({
  content: [{ type: 'tool_use' as const, name: 'Bash', input: { command } }],
  usage: { input_tokens: 1000, cache_read_input_tokens: context - 1000, output_tokens: 100 },
});

describe('Claude Code mods under the real CLI', { skip }, () => {
  test('a mod loads offline from --plugin-dir, sees each turn with its usage, and a throwing handler leaves the session working', async (t) => {
    const scratch = createScratch('shim-e2e-mod-');
    const plugin = writeModPlugin(
      scratch,
      'probe',
      `export function register(on) {
  on("turn.complete", async ($, e, next) => {
    console.error("PROBE turn.complete " + Object.keys(e).sort().join(",") + " usage:" + Object.keys(e.usage ?? {}).sort().join(","));
    return next(e);
  });
  on("turn.start", async ($, e, next) => {
    throw new Error("PROBE failure inside a mod");
  });
}
`,
    );
    const { run, debug } = await runWithPlugin(t, scratch, plugin);
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.match(
      debug,
      /hooks module probe@inline loaded \(worker, environment \d+, tier user\); events: turn\.complete,turn\.start/,
    );
    assert.match(
      debug,
      /PROBE turn\.complete answer,durationMs,isAborted,reason,turnId,usage usage:cache_creation_input_tokens,cache_read_input_tokens,input_tokens,model,output_tokens/,
    );
    assert.match(debug, /probe: turn\.start hook skipped: threw Error: PROBE failure inside a mod/);
    assert.ok(
      run.events.some((e) => (e as { type?: string }).type === 'result'),
      'the turn finished',
    );
  });

  test('a hooks module may import only its own files and "claude-code": node:fs is refused', async (t) => {
    const scratch = createScratch('shim-e2e-mod-');
    const plugin = writeModPlugin(
      scratch,
      'withfs',
      `import { appendFileSync } from "node:fs";
export function register(on) {
  on("turn.complete", async ($, e, next) => next(e));
}
`,
    );
    const { run, debug } = await runWithPlugin(t, scratch, plugin);
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.match(
      debug,
      /withfs: hooks module did not load: cannot import "node:fs" \(from hooks\/register\.js\): a hooks module imports its own files by relative path and "claude-code", nothing else/,
    );
  });

  test("a mod reaches shim's MCP server ($.mcp.call) and pins a status line ($.ui.status)", async (t) => {
    const scratch = createScratch('shim-e2e-mod-');
    const plugin = writeModPlugin(
      scratch,
      'bridge',
      `export function register(on) {
  on("turn.complete", async ($, e, next) => {
    const answer = await $.mcp.call("shim", "shim_get_crash_risk", {});
    const text = answer.content.map((block) => block.text ?? "").join("");
    await $.ui.status("shim: " + JSON.parse(text).riskLevel);
    return next(e);
  });
}
`,
    );
    const config = writeShimMcp(scratch);
    const { run, debug } = await runWithPlugin(t, scratch, plugin, ['--mcp-config', config]);
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.match(
      debug,
      /\$\.mcp\.call \(bridge\): mcp__shim__shim_get_crash_risk answered in \d+ms/,
    );
    assert.match(debug, /\$\.ui\.status \(bridge\): shim: safe/);
  });

  test("shim's mod: each response's usage re-levels the session with no hook process, its line is pinned, the level's notice shown once", async (t) => {
    const scratch = createScratch('shim-e2e-shim-mod-');
    const shimHome = join(scratch.home, '.shim');
    // 200k window (threshold 167,000): 30k → 90k → 125k (L1, 74.9%) → 150k (L2, 89.8%) → 152k → 155k.
    // A step after the first L2 one: its status line is drawn before the session ends even when
    // the machine is busy (the CLI does not wait for a mod's line once its last response is in).
    const { run, debug } = await runWithPlugin(
      t,
      scratch,
      writeShimMod(scratch),
      ['--mcp-config', writeShimMcp(scratch)],
      {
        steps: [30_000, 90_000, 125_000, 150_000, 152_000].map((c, i) =>
          bashAt(`echo step${i}`, c),
        ),
        final: {
          content: [{ type: 'text', text: 'Done.' }],
          usage: { input_tokens: 1000, cache_read_input_tokens: 154_000, output_tokens: 100 },
        },
      },
      { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' },
    );
    assert.equal(run.exitCode, 0, describeRun(run));
    // No command hook ran: no process per tool call.
    assert.doesNotMatch(debug, /Hooks: (PreToolUse|PostToolUse)/);
    // The level moved with the usage the mod reported, and its line followed.
    const lines = [...debug.matchAll(/\$\.ui\.status \(shim\): (shim \[CTX[^\n]*)/g)].map(
      (m) => m[1]!,
    );
    assert.ok(
      lines.some((l) => /L0\]/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /L2\]/.test(l)),
      lines.join('\n'),
    );
    // The mod sends the turn's last report before the turn completes (and `claude -p` exits):
    // shim has it by now, with no waiting.
    const path = join(shimHome, 'cache', 'mod', `${run.sessionId}.json`);
    assert.ok(existsSync(path), 'the mod reported');
    const watch = JSON.parse(readFileSync(path, 'utf8')) as { level: string; percent: number };
    assert.equal(watch.level, 'L2');
    assert.equal(watch.percent, 92.8, '154,000 + 1,000 of 167,000');
    // Each level's notice once (L1, then L2), shown by the mod.
    const toasts = [...debug.matchAll(/\$\.ui\.toast \(shim\): ([^\n]*)/g)].map((m) => m[1]!);
    assert.equal(toasts.filter((x) => /L1/.test(x)).length, 1, toasts.join('\n'));
    assert.equal(toasts.filter((x) => /L2/.test(x)).length, 1, toasts.join('\n'));
    assert.doesNotMatch(debug, /shim mod off/);
  });

  test("shim's mod before a compaction: checkpoint and instructions in Claude Code's summary request, its summary kept", async (t) => {
    const scratch = createScratch('shim-e2e-shim-mod-');
    const shimHome = join(scratch.home, '.shim');
    const { run, debug, mock } = await runWithPlugin(
      t,
      scratch,
      writeShimMod(scratch),
      ['--mcp-config', writeShimMcp(scratch)],
      {
        steps: [bashAt('echo one', 30_000), bashAt('echo two', 169_900)],
        final: { content: [{ type: 'text', text: 'Finished after compaction.' }] },
        summary: {
          content: [
            { type: 'text', text: '<analysis>ok</analysis>\n<summary>Ran two commands.</summary>' },
          ],
        },
      },
      { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' },
    );
    assert.equal(run.exitCode, 0, describeRun(run));
    const summaryRequests = mock.requests.filter((r) => r.kind === 'summary');
    assert.ok(summaryRequests.length > 0, 'Claude Code compacted');
    assert.ok(
      mock
        .requestsContaining('Context checkpoint (shim): when you write the summary')
        .some((r) => r.kind === 'summary'),
      "shim's instructions reached the summary request",
    );
    const db = new DatabaseSync(join(shimHome, 'shim.db'), { readOnly: true, timeout: 5000 });
    t.after(() => db.close());
    const kinds = (
      db.prepare('SELECT triggered_by FROM checkpoints').all() as Array<{ triggered_by: string }>
    ).map((r) => r.triggered_by);
    assert.ok(kinds.includes('pre_compact'), kinds.join(', '));
    const summaries = db.prepare('SELECT summary FROM compaction_summaries').all() as Array<{
      summary: string;
    }>;
    assert.equal(summaries.length, 1);
    assert.match(summaries[0]!.summary, /Ran two commands\./);
    assert.doesNotMatch(debug, /shim mod off/);
  });

  test("shim's mod without shim's MCP server: one notice, the mod turns itself off, the session finishes", async (t) => {
    const scratch = createScratch('shim-e2e-shim-mod-');
    const { run, debug } = await runWithPlugin(t, scratch, writeShimMod(scratch), [], {
      steps: ['one', 'two', 'three'].map((n, i) => bashAt(`echo ${n}`, 20_000 * (i + 1))),
      final: { content: [{ type: 'text', text: 'Done.' }] },
    });
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.ok(
      run.events.some((e) => (e as { type?: string }).type === 'result'),
      'the turn finished',
    );
    assert.equal(
      [...debug.matchAll(/shim mod off for this session: shim's MCP server is not connected/g)]
        .length,
      1,
    );
    assert.equal(
      [
        ...debug.matchAll(
          /\$\.ui\.status \(shim\): shim: mod off for this session \(shim.s MCP server is not connected/g,
        ),
      ].length,
      1,
    );
  });

  test("shim install --mod: Claude Code loads shim's mod from SHIM_HOME/mod through the settings file, beside the hooks and MCP server; uninstall takes it out", async (t) => {
    const scratch = createScratch('shim-e2e-shim-mod-');
    t.after(() => scratch.cleanup());
    const shimHome = join(scratch.home, '.shim');
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: scratch.home, SHIM_HOME: shimHome };
    delete env.CLAUDE_CONFIG_DIR;
    const install = spawnSync(
      process.execPath,
      [BIN, 'install', '--agent', 'claude', '--user', '--mod', '--json'],
      {
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(install.status, 0, install.stderr);
    const settingsPath = join(scratch.home, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as {
      enabledPlugins?: Record<string, boolean>;
      extraKnownMarketplaces?: Record<string, { source: { source: string; path: string } }>;
    };
    assert.deepEqual(settings.enabledPlugins, { 'shim-mod@shim-mod': true });
    assert.deepEqual(settings.extraKnownMarketplaces, {
      'shim-mod': { source: { source: 'directory', path: join(shimHome, 'mod') } },
    });

    const mock = await startMockApi({
      steps: ['one', 'two', 'three'].map((n, i) => bashAt(`echo ${n}`, 20_000 * (i + 1))),
      final: { content: [{ type: 'text', text: 'Done.' }] },
    });
    t.after(() => mock.close());
    const run = await runClaude({
      scratch,
      mock,
      prompt: 'Run three commands.',
      args: ['--debug'],
      env: { SHIM_HOME: shimHome },
    });
    assert.equal(run.exitCode, 0, describeRun(run));
    const debug = readDebugLog(scratch);
    assert.match(
      debug,
      /hooks module shim-mod@shim-mod loaded \(worker, environment \d+, tier user\)/,
    );
    assert.match(debug, /\$\.ui\.status \(shim-mod\): shim \[CTX/);
    assert.doesNotMatch(debug, /shim mod off/);
    // The mod reported through the server `shim install` registered, and no tool hook ran for it.
    assert.match(debug, /\$\.mcp\.call \(shim-mod\): mcp__shim__shim_mod_event answered/);
    assert.doesNotMatch(debug, /Hooks: PostToolUse\S*:mcp__shim__shim_mod_event/);

    const uninstall = spawnSync(
      process.execPath,
      [BIN, 'uninstall', '--agent', 'claude', '--user', '--json'],
      {
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(uninstall.status, 0, uninstall.stderr);
    const after = existsSync(settingsPath)
      ? (JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>)
      : {};
    assert.ok(
      !('enabledPlugins' in after) && !('extraKnownMarketplaces' in after),
      JSON.stringify(after),
    );
  });
});
