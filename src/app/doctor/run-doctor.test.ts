import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { getLogPath } from '../../store/home/log.ts';
import { runDoctor, type DoctorReport } from './run-doctor.ts';
import { installShim } from '../../agents/claude/settings/install.ts';
import { installCodex } from '../../agents/codex/settings/install.ts';
import type { ShimInvocation } from '../../agents/claude/settings/shim-command.ts';
import { testAgents } from '../../../test/helpers/agents.ts';

/** A stand-in for dist/shim.js: reads the hook payload and exits with `code`. */
function fakeShim(dir: string, code: number): ShimInvocation {
  const bin = join(dir, 'dist', 'shim.js');
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(
    bin,
    `let d = ''; process.stdin.on('data', (c) => (d += c)).on('end', () => {
       JSON.parse(d); if (${code}) process.stderr.write('handler broke\\n'); process.exit(${code}); });`,
  );
  return { node: process.execPath, bin };
}

function setup(code = 0) {
  const root = mkdtempSync(join(tmpdir(), 'shim-doctor-'));
  const w = {
    home: join(root, 'home'),
    claude: join(root, 'claude'),
    project: join(root, 'project'),
    invocation: fakeShim(join(root, 'pkg'), code),
  };
  mkdirSync(w.claude);
  mkdirSync(w.project);
  const opts = {
    agents: testAgents,
    home: w.home,
    env: { ...process.env, CLAUDE_CONFIG_DIR: w.claude, SHIM_HOME: w.home },
    cwd: w.project,
    invocation: w.invocation,
  };
  return { w, opts };
}

function status(report: DoctorReport): Record<string, string> {
  return Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
}

describe('shim doctor', () => {
  test('reports missing wiring with the fix, and is unhealthy', async () => {
    const { opts } = setup();
    const report = await runDoctor(opts);
    assert.equal(report.healthy, false);
    const hooks = report.checks.find((c) => c.id === 'hooks')!;
    assert.equal(hooks.status, 'fail');
    assert.match(hooks.detail, /not wired into any settings file/);
    assert.equal(hooks.fix, 'shim install');
    assert.equal(status(report).statusline, 'fail');
  });

  test('a healthy install passes every essential check', async () => {
    const { w, opts } = setup();
    installShim({ ...opts, scope: 'user' });
    const report = await runDoctor(opts);
    assert.deepEqual(status(report), {
      'settings-user': 'ok',
      hooks: 'ok',
      'hook-runs': 'ok',
      statusline: 'ok',
      mcp: 'ok',
      mod: 'ok',
      home: 'ok',
      config: 'ok',
      database: 'ok',
      'checkpoint-failures': 'ok',
      'checkpoint-chains': 'ok',
      activity: 'warn',
      transcripts: 'ok',
      log: 'ok',
      sync: 'ok',
      team: 'ok',
      'warm-look': 'ok',
    });
    assert.equal(report.healthy, true);
    assert.match(report.checks.find((c) => c.id === 'team')!.detail, /^not connected \(optional\)/);
    assert.match(report.checks.find((c) => c.id === 'sync')!.detail, /^nothing to sync yet/);
    assert.match(report.checks.find((c) => c.id === 'hooks')!.detail, new RegExp(w.invocation.bin));
    const mcp = report.checks.find((c) => c.id === 'mcp')!;
    assert.ok(mcp.detail.includes(`"shim" in ${join(w.claude, '.claude.json')}`), mcp.detail);
  });

  test("shim's mod: not set up, set up by this shim, a copy from another version", async () => {
    const { w, opts } = setup();
    installShim({ ...opts, scope: 'user' });
    const mod = async () => (await runDoctor(opts)).checks.find((c) => c.id === 'mod')!;
    assert.match((await mod()).detail, /not set up/);
    const source = join(dirname(w.invocation.bin), 'shim-mod.js');
    writeFileSync(source, 'export function register(on) {}\n');
    installShim({ ...opts, scope: 'user', mod: { source, version: '1.0.0' } });
    // The shim that runs doctor has its built mod next to its bin: the same file.
    const built = join(dirname(w.invocation.bin), '..', 'dist', 'shim-mod.js');
    writeFileSync(built, 'export function register(on) {}\n');
    const enabled = await mod();
    assert.equal(enabled.status, 'ok');
    assert.match(enabled.detail, /enabled in user settings; no report yet/);
    writeFileSync(built, 'export function register(on) { /* newer */ }\n');
    const stale = await mod();
    assert.equal(stale.status, 'warn');
    assert.match(stale.detail, /from another shim version/);
    assert.equal((await runDoctor(opts)).healthy, true, 'information only');
  });

  test('the MCP server: missing or stale is a warning with the fix, never unhealthy', async () => {
    const { w, opts } = setup();
    installShim({ ...opts, scope: 'user' });
    writeFileSync(join(w.claude, '.claude.json'), '{}');
    let report = await runDoctor(opts);
    let mcp = report.checks.find((c) => c.id === 'mcp')!;
    assert.equal(mcp.status, 'warn');
    assert.match(mcp.detail, /not registered with Claude Code/);
    assert.match(mcp.fix ?? '', /^shim install/);
    assert.equal(report.healthy, true);

    writeFileSync(
      join(w.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: { shim: { command: 'node', args: ['/gone/shim.cjs', 'mcp'] } },
      }),
    );
    report = await runDoctor(opts);
    mcp = report.checks.find((c) => c.id === 'mcp')!;
    assert.match(
      mcp.detail,
      /stale: "shim" in .*\.mcp\.json runs \/gone\/shim\.cjs \(a path that no longer exists\)/,
    );
  });

  test('names stale paths, a failing hook, recent errors and an open SHIM_HOME', async () => {
    const { w, opts } = setup(3);
    installShim({
      ...opts,
      scope: 'user',
      invocation: { node: '/gone/node', bin: '/gone/shim.js' },
    });
    chmodSync(w.home, 0o755);
    mkdirSync(join(w.home, 'logs'), { recursive: true });
    appendFileSync(
      getLogPath(w.home),
      `${JSON.stringify({ at: new Date().toISOString(), level: 'error', message: 'hook PreCompact failed' })}\nnot json\n`,
    );
    const report = await runDoctor(opts);
    const by = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    assert.match(by.hooks!.detail, /a path that no longer exists: \/gone\/shim\.js/);
    assert.equal(by['hook-runs']!.status, 'fail');
    assert.match(by['hook-runs']!.detail, /exited with 3: handler broke/);
    assert.equal(by.statusline!.status, 'fail');
    assert.equal(by.home!.status, 'fail');
    assert.equal(by.home!.fix, `chmod 700 ${w.home}`);
    assert.equal(by.log!.status, 'warn');
    assert.match(by.log!.detail, /1 in the last 24 h.*hook PreCompact failed/);
    assert.equal(report.healthy, false);
  });

  test('invalid settings and disableAllHooks fail with where to fix them', async () => {
    const { w, opts } = setup();
    writeFileSync(join(w.claude, 'settings.json'), '{ "hooks": ');
    mkdirSync(join(w.project, '.claude'));
    writeFileSync(join(w.project, '.claude', 'settings.json'), '{"disableAllHooks": true}');
    const report = await runDoctor(opts);
    const by = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    assert.equal(by['settings-user']!.status, 'fail');
    assert.match(by['settings-user']!.detail, /not valid JSON/);
    assert.equal(by['settings-project']!.status, 'fail');
    assert.match(by['settings-project']!.fix ?? '', /remove "disableAllHooks"/);
  });

  test('a hook that hangs is killed at the time limit', async () => {
    const { w, opts } = setup();
    writeFileSync(w.invocation.bin, 'setInterval(() => {}, 1000);');
    const started = Date.now();
    const report = await runDoctor({ ...opts, probeTimeoutMs: 300 });
    assert.ok(Date.now() - started < 5000);
    const probe = report.checks.find((c) => c.id === 'hook-runs')!;
    assert.equal(probe.status, 'fail');
    assert.match(probe.detail, /did not finish within 0.3 s/);
  });
});

describe('shim doctor where Claude Code is not used', () => {
  /** No Claude Code config directory: HOME and CLAUDE_CONFIG_DIR lead nowhere. */
  function withoutClaude() {
    const { w, opts } = setup();
    const userHome = join(w.project, '..', 'user');
    const codexHome = join(userHome, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const env = {
      ...opts.env,
      HOME: userHome,
      CLAUDE_CONFIG_DIR: join(userHome, '.claude'),
      CODEX_HOME: codexHome,
      SHIM_CODEX_BIN: join(userHome, 'no-codex'),
    };
    return { w, opts: { ...opts, env }, codexHome };
  }

  test('a Codex-only home is healthy: nothing about Claude Code, Codex wired', async () => {
    const { w, opts } = withoutClaude();
    installCodex({
      scope: 'user',
      shim: w.invocation,
      dryRun: false,
      home: w.home,
      env: opts.env,
      cwd: w.project,
    });
    const report = await runDoctor(opts);
    const ids = report.checks.map((c) => c.id);
    for (const claude of ['hooks', 'hook-runs', 'statusline', 'mcp', 'mod'])
      assert.ok(!ids.includes(claude), `no "${claude}" line: ${ids.join(', ')}`);
    assert.equal(status(report)['codex-hooks'], 'ok');
    assert.equal(
      report.healthy,
      true,
      JSON.stringify(report.checks.filter((c) => c.status !== 'ok')),
    );
  });

  test('no agent at all: one line says to install shim into one', async () => {
    const { opts } = withoutClaude();
    const report = await runDoctor(opts);
    const agents = report.checks.find((c) => c.id === 'agents')!;
    assert.equal(agents.status, 'fail');
    assert.match(agents.detail, /not installed into any agent/);
    assert.match(agents.fix ?? '', /shim install --agent claude\|codex\|gemini/);
    assert.equal(report.healthy, false);
  });
});
