/** End-to-end: install, uninstall and doctor through the built binary, on temp settings files. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { DoctorReport } from '../src/app/doctor/run-doctor.ts';
import type { InstallResult } from '../src/agents/claude/settings/install.ts';
import { SHIM_HOOKS } from '../src/agents/claude/settings/hook-spec.ts';
import { REALISTIC_SETTINGS } from '../src/agents/claude/settings/settings-fixture.test-helper.ts';
import { hookCommand, statusLineCommand } from '../src/agents/claude/settings/shim-command.ts';
import type { UninstallResult } from '../src/agents/claude/settings/uninstall.ts';
import { BIN, runShim, type Run } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';

const INVOCATION = { node: process.execPath, bin: BIN };

type World = {
  home: string;
  claude: string;
  project: string;
  settings: string;
  /** The user's home directory (~/.codex, ~/.gemini) and a PATH of no agent CLI. */
  user: string;
  path: string;
};

function world(content: string | null = REALISTIC_SETTINGS): World {
  const root = makeTempDir('shim-install-cli-');
  const w = {
    home: join(root, 'home'),
    claude: join(root, 'claude'),
    project: join(root, 'project'),
    settings: join(root, 'claude', 'settings.json'),
    user: join(root, 'user'),
    path: join(root, 'bin'),
  };
  for (const dir of [w.claude, w.project, w.user, w.path]) mkdirSync(dir);
  if (content !== null) writeFileSync(w.settings, content);
  return w;
}

// Without --agent, install wires the agents found: only this world's (Claude Code's directory).
function shim(w: World, args: string[], env: Record<string, string> = {}): Run {
  return runShim(w.home, args, {
    env: { CLAUDE_CONFIG_DIR: w.claude, HOME: w.user, PATH: w.path, ...env },
    cwd: w.project,
  });
}

function json<T>(run: Run): T {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

describe('shim install / uninstall', () => {
  test('installs absolute node + bundle commands and uninstalls to the exact original bytes', () => {
    const w = world();
    const result = json<InstallResult>(shim(w, ['install', '--agent', 'claude', '--json']));
    assert.equal(result.settingsPath, w.settings);
    assert.equal(result.changes.length, SHIM_HOOKS.length + 2, 'hooks, statusline, MCP server');
    const text = readFileSync(w.settings, 'utf8');
    for (const spec of SHIM_HOOKS) {
      const command = hookCommand(INVOCATION, spec.event);
      assert.equal(result.hookCommands[spec.event], command);
      assert.ok(text.includes(JSON.stringify(command)), spec.event);
    }
    assert.ok(
      text.includes(
        JSON.stringify(statusLineCommand(INVOCATION, 'bash ~/.claude/statusline.sh --compact')),
      ),
    );
    assert.ok(result.backupPath && readFileSync(result.backupPath, 'utf8') === REALISTIC_SETTINGS);

    const removed = json<UninstallResult>(shim(w, ['uninstall', '--agent', 'claude', '--json']));
    assert.equal(removed.method, 'restored-backup');
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
  });

  test('a second install says so and changes nothing', () => {
    const w = world();
    assert.equal(shim(w, ['install']).status, 0);
    const before = readFileSync(w.settings);
    const again = shim(w, ['install']);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /already installed.*nothing changed/);
    assert.deepEqual(readFileSync(w.settings), before);
  });

  test('text output says what was added and how to undo it', () => {
    const w = world();
    const run = shim(w, ['install']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Installed shim into .*settings\.json \(user settings\)/);
    assert.match(run.stdout, /\+ SessionStart +\[startup\|resume\|clear\|compact\] timeout 30 s/);
    assert.match(run.stdout, /shown with yours: bash ~\/\.claude\/statusline\.sh --compact/);
    assert.match(run.stdout, /To undo: shim uninstall --agent claude$/m);
  });

  test('--dry-run prints the diff and writes nothing', () => {
    const w = world();
    const run = shim(w, ['install', '--dry-run']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^Dry run, nothing written/);
    assert.match(run.stdout, /^\+ +"command": ".* hook PreCompact",$/m);
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
    assert.equal(existsSync(join(w.home, 'backups')), false);
    assert.equal(existsSync(join(w.home, 'installs.json')), false);
  });

  test('--project writes the project settings, not the user’s', () => {
    const w = world();
    const result = json<InstallResult>(
      shim(w, ['install', '--agent', 'claude', '--project', '--json']),
    );
    const projectSettings = join(w.project, '.claude', 'settings.json');
    assert.equal(result.settingsPath, projectSettings);
    assert.ok(readFileSync(projectSettings, 'utf8').includes('hook SessionEnd'));
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
    const removed = json<UninstallResult>(
      shim(w, ['uninstall', '--agent', 'claude', '--project', '--json']),
    );
    assert.equal(removed.method, 'removed-file');
    assert.equal(existsSync(projectSettings), false);
    assert.notEqual(shim(w, ['install', '--project', '--user']).status, 0);
  });

  test('refuses a settings file that is not valid JSON and leaves it alone', () => {
    const broken = '{\n  "permissions": { "allow": ["Bash(ls)"], }\n}\n';
    const w = world(broken);
    const run = shim(w, ['install']);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /settings\.json is not valid JSON/);
    assert.equal(readFileSync(w.settings, 'utf8'), broken);
  });

  test('uninstall after the user edited the file keeps the edit', () => {
    const w = world();
    assert.equal(shim(w, ['install']).status, 0);
    const edited = readFileSync(w.settings, 'utf8').replace(
      '"cleanupPeriodDays": 99',
      '"cleanupPeriodDays": 365',
    );
    writeFileSync(w.settings, edited);
    const removed = json<UninstallResult>(shim(w, ['uninstall', '--agent', 'claude', '--json']));
    assert.equal(removed.method, 'surgical');
    const after = readFileSync(w.settings, 'utf8');
    assert.match(after, /"cleanupPeriodDays": 365/);
    assert.ok(!after.includes('shim.js'));
    assert.match(after, /"command": "bash ~\/\.claude\/statusline\.sh --compact"/);
  });
});

describe('shim uninstall: what shim leaves behind', () => {
  test('says what is left in SHIM_HOME; --purge --yes deletes it and the snapshot refs', () => {
    const w = world();
    json<InstallResult>(shim(w, ['install', '--agent', 'claude', '--json']));
    const backups = readdirSync(join(w.home, 'backups'));
    assert.ok(
      backups.every((b) => /^(settings|claude)-\d{4}-/.test(b)),
      backups.join(', '),
    );
    const plain = shim(w, ['uninstall']);
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(plain.stdout, /Still here: .*shim uninstall --purge/s);
    assert.ok(existsSync(w.home));
    json<InstallResult>(shim(w, ['install', '--agent', 'claude', '--json']));
    const purged = json<{ purged: { refs: number; home: boolean } }>(
      shim(w, ['uninstall', '--agent', 'claude', '--purge', '--yes', '--json']),
    );
    assert.deepEqual(purged.purged, { refs: 0, home: true });
    assert.equal(existsSync(w.home), false);
    assert.equal(existsSync(w.settings), true);
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
  });
});

describe('the launcher: help for the hot-path commands', () => {
  for (const command of ['hook', 'statusline']) {
    test(`shim ${command} --help prints usage and runs nothing`, () => {
      const w = world();
      const run = shim(w, [command, '--help']);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^Usage: shim ${command}`));
      assert.equal(existsSync(join(w.home, 'logs')), false);
    });
  }
});

describe('shim install / uninstall: the MCP server', () => {
  const claudeJson = (w: World) => join(w.claude, '.claude.json');

  test('registers `<node> <bin/shim.cjs> mcp` as "shim" in .claude.json and says so', () => {
    const w = world();
    const existing =
      '{\n  "numStartups": 3,\n  "mcpServers": {\n    "db": { "command": "pg" }\n  }\n}\n';
    writeFileSync(claudeJson(w), existing);
    const run = shim(w, ['install']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /^ {2}\+ MCP server +"shim" \(.*shim\.cjs mcp\) in .*\.claude\.json$/m,
    );
    const config = JSON.parse(readFileSync(claudeJson(w), 'utf8')) as {
      numStartups: number;
      mcpServers: Record<string, unknown>;
    };
    assert.equal(config.numStartups, 3);
    assert.deepEqual(config.mcpServers, {
      db: { command: 'pg' },
      shim: { type: 'stdio', command: INVOCATION.node, args: [INVOCATION.bin, 'mcp'] },
    });
    assert.match(shim(w, ['install']).stdout, /already installed.*nothing changed/);

    const doctor = JSON.parse(shim(w, ['doctor', '--json']).stdout) as DoctorReport;
    assert.equal(doctor.checks.find((c) => c.id === 'mcp')?.status, 'ok');

    const removed = json<UninstallResult>(shim(w, ['uninstall', '--agent', 'claude', '--json']));
    assert.equal(removed.mcp.method, 'restored-backup');
    assert.equal(readFileSync(claudeJson(w), 'utf8'), existing);
  });

  test('--project: <project>/.mcp.json, created and removed again', () => {
    const w = world();
    const result = json<InstallResult>(
      shim(w, ['install', '--agent', 'claude', '--project', '--json']),
    );
    const mcpJson = join(w.project, '.mcp.json');
    assert.equal(result.mcpConfigPath, mcpJson);
    assert.deepEqual(JSON.parse(readFileSync(mcpJson, 'utf8')), {
      mcpServers: {
        shim: { type: 'stdio', command: INVOCATION.node, args: [INVOCATION.bin, 'mcp'] },
      },
    });
    assert.equal(existsSync(claudeJson(w)), false);
    const text = shim(w, ['uninstall', '--project']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /- MCP server +"shim" from .*\.mcp\.json/);
    assert.match(text.stdout, /note: removed the MCP server from .*\.mcp\.json: shim had created/);
    assert.equal(existsSync(mcpJson), false);
  });
});

describe('shim doctor', () => {
  test('reports missing wiring and exits 1', () => {
    const w = world();
    const run = shim(w, ['doctor', '--json']);
    assert.equal(run.status, 1);
    const report = JSON.parse(run.stdout) as DoctorReport;
    assert.equal(report.healthy, false);
    assert.equal(report.checks.find((c) => c.id === 'hooks')?.status, 'fail');
    const text = shim(w, ['doctor']);
    assert.match(text.stdout, /✗ hooks +shim is not wired into any settings file/);
    assert.match(text.stdout, /fix: shim install/);
  });

  test('after install every wiring check passes; the exit code follows the essential checks', () => {
    const w = world();
    assert.equal(shim(w, ['install']).status, 0);
    const run = shim(w, ['doctor', '--json']);
    const report = JSON.parse(run.stdout) as DoctorReport;
    const by = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    for (const id of ['settings-user', 'hooks', 'statusline', 'mcp', 'home', 'database']) {
      assert.equal(by[id]?.status, 'ok', `${id}: ${by[id]?.detail}`);
    }
    // The hook handler is someone else's code; whatever it does, doctor must report it.
    assert.ok(by['hook-runs']);
    assert.equal(
      report.healthy,
      report.checks.every((c) => !c.essential || c.status === 'ok'),
    );
    assert.equal(run.status, report.healthy ? 0 : 1);
  });

  test('without --agent: every agent found here is wired and named; none found asks for --agent', () => {
    const none = world();
    const missing = shim(none, ['install'], { CLAUDE_CONFIG_DIR: join(none.user, 'no-claude') });
    assert.equal(missing.status, 1, missing.stderr);
    assert.match(missing.stderr, /no agent found on this machine/);
    assert.match(missing.stderr, /shim install --agent <claude\|codex\|gemini>/);
    assert.equal(readFileSync(none.settings, 'utf8'), REALISTIC_SETTINGS, 'nothing touched');

    const w = world();
    mkdirSync(join(w.user, '.codex'));
    // Gemini CLI by its command on PATH alone.
    writeFileSync(join(w.path, 'gemini'), '#!/bin/sh\n', { mode: 0o755 });
    const run = shim(w, ['install']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stderr,
      /^Found Claude Code \(.+ exists\), Codex CLI \(~\/\.codex exists\), Gemini CLI \(gemini on PATH\)/,
    );
    assert.ok(readFileSync(w.settings, 'utf8').includes(BIN), "Claude Code's settings");
    assert.ok(existsSync(join(w.user, '.codex', 'hooks.json')), "Codex CLI's hooks.json");
    assert.ok(
      readFileSync(join(w.user, '.gemini', 'settings.json'), 'utf8').includes(BIN),
      "Gemini CLI's settings",
    );
    const again = json<Array<{ agent: string; foundBy: string; result: unknown }>>(
      shim(w, ['install', '--json']),
    );
    assert.deepEqual(
      again.map((a) => [a.agent, a.foundBy]),
      [
        ['claude', `${w.claude} exists`],
        ['codex', '~/.codex exists'],
        ['gemini', 'gemini on PATH'],
      ],
    );
    const removed = shim(w, ['uninstall']);
    assert.equal(removed.status, 0, removed.stderr);
    assert.match(removed.stderr, /^Found Claude Code/);
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
  });
});
