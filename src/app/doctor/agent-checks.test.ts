import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { codexAdapter } from '../../agents/codex/adapter.ts';
import { installCodex } from '../../agents/codex/settings/install.ts';
import { installGemini } from '../../agents/gemini/settings/install.ts';
import { agentChecks } from './agent-checks.ts';
import type { DoctorCheck } from './doctor-check.ts';
import { testAgents } from '../../../test/helpers/agents.ts';

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'shim-doctor-agents-'));
  const home = join(root, 'shim');
  const userHome = join(root, 'home');
  const project = join(root, 'project');
  const codexHome = join(userHome, '.codex');
  for (const dir of [home, project, codexHome]) mkdirSync(dir, { recursive: true });
  const shim = { node: process.execPath, bin: join(root, 'pkg', 'dist', 'shim.js') };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: userHome,
    CODEX_HOME: codexHome,
    SHIM_HOME: home,
    // No real CLI is asked unless a test says so.
    SHIM_CODEX_BIN: join(root, 'no-codex'),
    SHIM_GEMINI_BIN: join(root, 'no-gemini'),
  };
  const options = { agents: testAgents, home, env, cwd: project, invocation: shim };
  return { root, home, env, project, codexHome, shim, options };
}

/** An executable that prints `text` for `--version`. */
function fakeCli(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho '${text}'\n`);
  chmodSync(path, 0o755);
  return path;
}

function byId(checks: DoctorCheck[]): Record<string, DoctorCheck> {
  return Object.fromEntries(checks.map((c) => [c.id, c]));
}

describe('shim doctor: Codex CLI', () => {
  test('nothing about Codex when shim was never installed into it', async () => {
    const { options } = setup();
    assert.deepEqual(await agentChecks(options), []);
  });

  test('installed and trusted: hooks, trust, MCP ok; the CLI version against the verified one', async () => {
    const w = setup();
    installCodex({
      scope: 'user',
      shim: w.shim,
      dryRun: false,
      home: w.home,
      env: w.env,
      cwd: w.project,
    });
    let checks = byId(await agentChecks(w.options));
    assert.equal(checks['codex-hooks']!.status, 'ok');
    assert.equal(checks['codex-trust']!.status, 'ok');
    assert.match(checks['codex-trust']!.detail, /Codex runs all 7 of shim's hooks/);
    assert.equal(checks['codex-mcp']!.status, 'ok');
    assert.equal(checks['codex-version']!.status, 'warn');
    assert.match(checks['codex-version']!.detail, /is not on PATH/);
    assert.equal(checks['codex-version']!.essential, false);
    assert.equal(checks['gemini-hooks'], undefined, 'nothing about Gemini');

    // The version the adapter names (the e2e pin), and one it does not.
    const verified = codexAdapter.verifiedVersion;
    w.env.SHIM_CODEX_BIN = fakeCli(w.root, 'codex', `codex-cli ${verified}`);
    checks = byId(await agentChecks(w.options));
    assert.equal(checks['codex-version']!.status, 'ok');
    assert.equal(
      checks['codex-version']!.detail.startsWith(`${verified}, the version shim was verified with`),
      true,
      checks['codex-version']!.detail,
    );
    w.env.SHIM_CODEX_BIN = fakeCli(w.root, 'codex-next', 'codex-cli 0.170.2');
    checks = byId(await agentChecks(w.options));
    assert.equal(checks['codex-version']!.status, 'warn');
    assert.equal(
      checks['codex-version']!.detail.startsWith(`0.170.2; shim was verified with ${verified}`),
      true,
      checks['codex-version']!.detail,
    );
  });

  test('a hook installed but not trusted (Codex skips it silently): fail, naming what to approve', async () => {
    const w = setup();
    installCodex({
      scope: 'user',
      shim: w.shim,
      dryRun: false,
      home: w.home,
      env: w.env,
      cwd: w.project,
    });
    const configPath = join(w.codexHome, 'config.toml');
    const hooksPath = join(w.codexHome, 'hooks.json');
    const key = `${hooksPath}:session_start:0:0`;
    const config = readFileSync(configPath, 'utf8');
    const table = `[hooks.state.${JSON.stringify(key)}]`;
    assert.ok(config.includes(table), config);
    // The user (or another tool) drops SessionStart's trust entry.
    writeFileSync(
      configPath,
      config.replace(
        new RegExp(`${table.replace(/[[\].*+?^${}()|\\]/g, '\\$&')}\\ntrusted_hash = "[^"]+"`),
        '',
      ),
    );
    const trust = byId(await agentChecks(w.options))['codex-trust']!;
    assert.equal(trust.status, 'fail');
    assert.equal(trust.essential, true);
    assert.match(
      trust.detail,
      /Codex skips 1 of shim's 7 hooks without a word: SessionStart \(never trusted\)/,
    );
    assert.ok(trust.fix!.includes(table), trust.fix!);
    assert.match(trust.fix!, /shim install --agent codex/);
  });

  test('a trusted hook edited since (its hash no longer matches): fail, "changed since it was trusted"', async () => {
    const w = setup();
    installCodex({
      scope: 'user',
      shim: w.shim,
      dryRun: false,
      home: w.home,
      env: w.env,
      cwd: w.project,
    });
    const hooksPath = join(w.codexHome, 'hooks.json');
    const hooks = JSON.parse(readFileSync(hooksPath, 'utf8')) as {
      hooks: Record<string, { hooks: { timeout: number }[] }[]>;
    };
    hooks.hooks.Stop![0]!.hooks[0]!.timeout = 99;
    writeFileSync(hooksPath, JSON.stringify(hooks));
    const trust = byId(await agentChecks(w.options))['codex-trust']!;
    assert.equal(trust.status, 'fail');
    assert.match(trust.detail, /Stop \(changed since it was trusted\)/);
  });

  test('a hook or the MCP server taken out, or another shim: each said with the fix', async () => {
    const w = setup();
    installCodex({
      scope: 'user',
      shim: w.shim,
      dryRun: false,
      home: w.home,
      env: w.env,
      cwd: w.project,
    });
    const hooksPath = join(w.codexHome, 'hooks.json');
    const configPath = join(w.codexHome, 'config.toml');
    const other = byId(
      await agentChecks({ ...w.options, invocation: { ...w.shim, bin: '/elsewhere/shim.js' } }),
    )['codex-hooks']!;
    assert.equal(other.status, 'warn');
    assert.match(other.detail, /runs another shim than this one \(\/elsewhere\/shim\.js\)/);

    const hooks = JSON.parse(readFileSync(hooksPath, 'utf8')) as { hooks: Record<string, unknown> };
    delete hooks.hooks.PreCompact;
    writeFileSync(hooksPath, JSON.stringify(hooks));
    writeFileSync(
      configPath,
      readFileSync(configPath, 'utf8').replace('[mcp_servers.shim]', '[mcp_servers.other]'),
    );
    const checks = byId(await agentChecks(w.options));
    assert.equal(checks['codex-hooks']!.status, 'fail');
    assert.match(checks['codex-hooks']!.detail, /lacks shim's PreCompact hook$/);
    assert.equal(checks['codex-hooks']!.fix, 'shim install --agent codex');
    assert.equal(checks['codex-mcp']!.status, 'fail');
    assert.match(checks['codex-mcp']!.detail, /no \[mcp_servers\.shim\]/);
  });
});

describe('shim doctor: Gemini CLI', () => {
  function installed() {
    const w = setup();
    installGemini({
      scope: 'user',
      dryRun: false,
      home: w.home,
      env: w.env,
      cwd: w.project,
      invocation: w.shim,
    });
    return { ...w, settingsPath: join(w.env.HOME!, '.gemini', 'settings.json') };
  }

  test('installed: hooks and MCP ok, the CLI version against the verified one', async () => {
    const w = installed();
    let checks = byId(await agentChecks(w.options));
    assert.equal(checks['gemini-hooks']!.status, 'ok');
    assert.match(checks['gemini-hooks']!.detail, /^all 8 events in .*settings\.json/);
    assert.equal(checks['gemini-mcp']!.status, 'ok');
    assert.equal(checks['codex-hooks'], undefined, 'nothing about Codex');
    w.env.SHIM_GEMINI_BIN = fakeCli(w.root, 'gemini', '0.61.0');
    checks = byId(await agentChecks(w.options));
    assert.equal(checks['gemini-version']!.status, 'ok');
    w.env.SHIM_GEMINI_BIN = fakeCli(w.root, 'gemini-old', '0.38.1');
    checks = byId(await agentChecks(w.options));
    assert.equal(checks['gemini-version']!.status, 'warn');
    assert.match(checks['gemini-version']!.detail, /^0\.38\.1; shim was verified with 0\.61\.0/);
  });

  test('installed by a shim from before BeforeModel: a warning that says what it costs, others fail', async () => {
    const w = installed();
    const settings = JSON.parse(readFileSync(w.settingsPath, 'utf8')) as {
      hooks: Record<string, unknown>;
    };
    delete settings.hooks.BeforeModel;
    writeFileSync(w.settingsPath, JSON.stringify(settings, null, 2));
    let checks = byId(await agentChecks(w.options));
    assert.equal(checks['gemini-hooks']!.status, 'warn');
    assert.match(
      checks['gemini-hooks']!.detail,
      /lacks shim's BeforeModel hook: restores reach the model with < and > escaped/,
    );
    assert.equal(checks['gemini-hooks']!.fix, 'shim install --agent gemini');
    delete settings.hooks.AfterTool;
    writeFileSync(w.settingsPath, JSON.stringify(settings, null, 2));
    checks = byId(await agentChecks(w.options));
    assert.equal(checks['gemini-hooks']!.status, 'fail');
    assert.match(checks['gemini-hooks']!.detail, /lacks shim's AfterTool, BeforeModel hooks/);
  });

  test("the version comes from the CLI's npm package without starting it (Gemini takes seconds)", async () => {
    const w = installed();
    // npm's layout: node_modules/.bin/gemini → ../@google/gemini-cli/bundle/gemini.js
    const pkg = join(w.root, 'node_modules', '@google', 'gemini-cli');
    mkdirSync(join(pkg, 'bundle'), { recursive: true });
    mkdirSync(join(w.root, 'node_modules', '.bin'));
    writeFileSync(join(pkg, 'package.json'), '{"name": "@google/gemini-cli", "version": "0.61.0"}');
    // Were it started, it would say another version.
    fakeCli(join(pkg, 'bundle'), 'gemini.js', '9.9.9');
    const bin = join(w.root, 'node_modules', '.bin', 'gemini');
    symlinkSync(join('..', '@google', 'gemini-cli', 'bundle', 'gemini.js'), bin);
    w.env.SHIM_GEMINI_BIN = bin;
    assert.equal(byId(await agentChecks(w.options))['gemini-version']!.status, 'ok');
    // Found on PATH the same way.
    delete w.env.SHIM_GEMINI_BIN;
    w.env.PATH = `${join(w.root, 'node_modules', '.bin')}:${w.env.PATH}`;
    const onPath = byId(await agentChecks(w.options))['gemini-version']!;
    assert.match(onPath.detail, /^0\.61\.0, the version shim was verified with/);
  });

  test('a hook or the MCP server taken out, or settings Gemini cannot read: fail with the fix', async () => {
    const w = installed();
    const settings = JSON.parse(readFileSync(w.settingsPath, 'utf8')) as {
      hooks: Record<string, unknown>;
      mcpServers: Record<string, unknown>;
    };
    delete settings.hooks.AfterTool;
    delete settings.mcpServers.shim;
    writeFileSync(w.settingsPath, JSON.stringify(settings));
    let checks = byId(await agentChecks(w.options));
    assert.equal(checks['gemini-hooks']!.status, 'fail');
    assert.match(checks['gemini-hooks']!.detail, /lacks shim's AfterTool hook$/);
    assert.equal(checks['gemini-hooks']!.fix, 'shim install --agent gemini');
    assert.equal(checks['gemini-mcp']!.status, 'fail');

    writeFileSync(w.settingsPath, '{"hooks": ');
    checks = byId(await agentChecks(w.options));
    assert.equal(checks['gemini-settings']!.status, 'fail');
    assert.match(checks['gemini-settings']!.detail, /is not valid JSON/);
    // Installed (shim's record of it) though nothing of shim can be read now.
    assert.equal(checks['gemini-hooks']!.status, 'fail');
  });

  test('nothing about Gemini when shim was never installed into it', async () => {
    const w = setup();
    mkdirSync(join(w.env.HOME!, '.gemini'), { recursive: true });
    writeFileSync(
      join(w.env.HOME!, '.gemini', 'settings.json'),
      '{"model": {"name": "gemini-2.5-pro"}}\n',
    );
    assert.deepEqual(await agentChecks(w.options), []);
  });
});
