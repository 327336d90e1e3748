import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AppError } from '../../../core/errors.ts';
import { SHIM_HOOKS } from './hook-spec.ts';
import { findShimHooks } from './hooks-merge.ts';
import { installShim, type InstallOptions } from './install.ts';
import { loadInstallRecord } from './install-record.ts';
import { parseSettingsText } from './json-text.ts';
import { getMcpConfigPath } from './mcp-entries.ts';
import { REALISTIC_SETTINGS, USER_STATUSLINE } from './settings-fixture.test-helper.ts';
import { statusLineCommand } from './shim-command.ts';
import { readStatusLine } from './statusline-merge.ts';
import { uninstallShim } from './uninstall.ts';

const NOW = { node: '/usr/bin/node', bin: '/opt/shim/dist/shim.js' };
const OLD = { node: '/usr/bin/node', bin: '/old/shim/dist/shim.js' };

type World = { home: string; claude: string; project: string; settings: string };

function world(content: string | null = REALISTIC_SETTINGS): World {
  const root = mkdtempSync(join(tmpdir(), 'shim-install-'));
  const w = {
    home: join(root, 'shim-home'),
    claude: join(root, 'claude'),
    project: join(root, 'project'),
    settings: join(root, 'claude', 'settings.json'),
  };
  mkdirSync(w.claude);
  mkdirSync(w.project);
  if (content !== null) writeFileSync(w.settings, content);
  return w;
}

function options(w: World, extra: Partial<InstallOptions> = {}): InstallOptions {
  return {
    scope: 'user',
    home: w.home,
    env: { CLAUDE_CONFIG_DIR: w.claude },
    cwd: w.project,
    invocation: NOW,
    ...extra,
  };
}

function backups(w: World): string[] {
  try {
    return readdirSync(join(w.home, 'backups'));
  } catch {
    return [];
  }
}

describe('install and uninstall', () => {
  test('install then uninstall gives back the file byte for byte', () => {
    const w = world();
    const result = installShim(options(w));
    assert.equal(result.changed, true);
    assert.equal(result.changes.length, SHIM_HOOKS.length + 2, 'hooks, statusline, MCP server');
    const installed = readFileSync(w.settings, 'utf8');
    assert.match(installed, /^\{\n {3}"\$schema"/, 'keeps the three-space indentation');
    assert.ok(!installed.endsWith('\n'), 'and the missing final newline');
    assert.equal(readFileSync(result.backupPath!, 'utf8'), REALISTIC_SETTINGS);

    const removed = uninstallShim(options(w));
    assert.equal(removed.method, 'restored-backup');
    assert.equal(removed.changes.length, SHIM_HOOKS.length + 2);
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
    assert.equal(loadInstallRecord(w.home, w.settings), null);
  });

  test('a second install changes nothing and writes no backup', () => {
    const w = world();
    installShim(options(w));
    const first = readFileSync(w.settings);
    const again = installShim(options(w));
    assert.equal(again.changed, false);
    assert.deepEqual(again.changes, []);
    assert.equal(again.backupPath, null);
    assert.deepEqual(readFileSync(w.settings), first);
    assert.equal(backups(w).length, 1);
  });

  test('an install from a new path replaces the old one, and uninstall is still exact', () => {
    const w = world();
    installShim(options(w, { invocation: OLD }));
    const moved = installShim(options(w));
    assert.ok(moved.changes.every((c) => c.kind.endsWith('-replaced')));
    const settings = parseSettingsText(readFileSync(w.settings, 'utf8'), w.settings);
    assert.equal(findShimHooks(settings).length, SHIM_HOOKS.length);
    assert.ok(!readFileSync(w.settings, 'utf8').includes('/old/shim'));
    assert.deepEqual(readStatusLine(settings), {
      kind: 'shim',
      command: statusLineCommand(NOW, USER_STATUSLINE),
      wrapped: USER_STATUSLINE,
    });
    assert.equal(uninstallShim(options(w)).method, 'restored-backup');
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
  });

  test('uninstall after the user edited the file keeps their edit and restores their statusline', () => {
    const w = world();
    installShim(options(w));
    const edited = parseSettingsText(readFileSync(w.settings, 'utf8'), w.settings);
    edited.model = 'sonnet';
    (edited.env as Record<string, string>).NEW_VAR = '1';
    writeFileSync(w.settings, JSON.stringify(edited, null, '   '));

    const removed = uninstallShim(options(w));
    assert.equal(removed.method, 'surgical');
    assert.ok(removed.backupPath && existsSync(removed.backupPath));
    const after = parseSettingsText(readFileSync(w.settings, 'utf8'), w.settings);
    const expected = parseSettingsText(REALISTIC_SETTINGS, w.settings);
    expected.model = 'sonnet';
    (expected.env as Record<string, string>).NEW_VAR = '1';
    assert.deepEqual(after, expected);
    assert.deepEqual(Object.keys(after), Object.keys(expected));
  });

  test('an edit between two installs makes uninstall surgical, not a rollback of the edit', () => {
    const w = world();
    installShim(options(w, { invocation: OLD }));
    const edited = readFileSync(w.settings, 'utf8').replace('"opus"', '"haiku"');
    writeFileSync(w.settings, edited);
    installShim(options(w));
    assert.equal(uninstallShim(options(w)).method, 'surgical');
    const after = parseSettingsText(readFileSync(w.settings, 'utf8'), w.settings);
    assert.equal(after.model, 'haiku');
    assert.deepEqual(after.statusLine, parseSettingsText(REALISTIC_SETTINGS, 'x').statusLine);
  });

  test('a settings file that is not valid JSON is refused and left untouched', () => {
    const broken = '{\n  "model": "opus",\n  "hooks": {\n}';
    const w = world(broken);
    assert.throws(
      () => installShim(options(w)),
      (e: unknown) => e instanceof AppError && e.code === 'CONFIG_INVALID',
    );
    assert.equal(readFileSync(w.settings, 'utf8'), broken);
    assert.deepEqual(backups(w), []);
    assert.throws(() => uninstallShim(options(w)), AppError);
    assert.equal(readFileSync(w.settings, 'utf8'), broken);
  });

  test('--dry-run writes nothing and shows the diff', () => {
    const w = world();
    const result = installShim(options(w, { dryRun: true }));
    assert.equal(result.changed, true);
    assert.match(
      result.diff ?? '',
      /^\+ +"command": "\/usr\/bin\/node \/opt\/shim\/dist\/shim\.js hook Stop",$/m,
    );
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
    assert.equal(existsSync(w.home), false);
  });

  test('--project writes <cwd>/.claude/settings.json, and uninstall removes what it created', () => {
    const w = world();
    const result = installShim(options(w, { scope: 'project' }));
    const projectSettings = join(w.project, '.claude', 'settings.json');
    assert.equal(result.settingsPath, projectSettings);
    assert.equal(result.undo, 'shim uninstall --agent claude --project');
    assert.ok(result.notes.some((n) => n.includes('committed')));
    assert.equal(
      findShimHooks(parseSettingsText(readFileSync(projectSettings, 'utf8'), 'x')).length,
      SHIM_HOOKS.length,
    );
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS, 'user settings untouched');

    assert.equal(uninstallShim(options(w, { scope: 'project' })).method, 'removed-file');
    assert.equal(existsSync(join(w.project, '.claude')), false);
  });

  test('writes through a symlinked settings file and keeps the link', () => {
    const w = world(null);
    const real = join(w.project, 'dotfiles-settings.json');
    writeFileSync(real, REALISTIC_SETTINGS);
    symlinkSync(real, w.settings);
    installShim(options(w));
    assert.ok(lstatSync(w.settings).isSymbolicLink());
    assert.ok(readFileSync(real, 'utf8').includes('shim.js hook'));
    uninstallShim(options(w));
    assert.ok(lstatSync(w.settings).isSymbolicLink());
    assert.equal(readFileSync(real, 'utf8'), REALISTIC_SETTINGS);
  });

  test('uninstall without an install record still removes shim and unwraps the statusline', () => {
    const w = world();
    installShim(options(w));
    const other = { ...options(w), home: join(w.project, 'other-home') };
    const removed = uninstallShim(other);
    assert.equal(removed.method, 'surgical');
    assert.deepEqual(
      parseSettingsText(readFileSync(w.settings, 'utf8'), 'x'),
      parseSettingsText(REALISTIC_SETTINGS, 'x'),
    );
    assert.equal(uninstallShim(options(w)).method, 'nothing-to-do');
  });

  test('uninstall where shim is not installed does nothing', () => {
    const w = world();
    const result = uninstallShim(options(w));
    assert.equal(result.method, 'nothing-to-do');
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
    assert.equal(uninstallShim(options(world(null))).method, 'nothing-to-do');
  });
});

/** A ~/.claude.json as Claude Code keeps it: its own state, a user's server, two-space JSON. */
const CLAUDE_JSON = `{
  "numStartups": 12,
  "installMethod": "npm",
  "projects": {
    "/home/me/app": { "allowedTools": [], "mcpServers": {} }
  },
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_TOKEN": "x" }
    }
  },
  "userID": "abc"
}
`;

describe('install and uninstall: the MCP server', () => {
  const claudeJson = (w: World) => join(w.claude, '.claude.json');
  const servers = (path: string) =>
    parseSettingsText(readFileSync(path, 'utf8'), path).mcpServers as Record<string, unknown>;

  test('user scope: a stdio server "shim" in $CLAUDE_CONFIG_DIR/.claude.json, others kept', () => {
    const w = world();
    writeFileSync(claudeJson(w), CLAUDE_JSON);
    const result = installShim(options(w));
    assert.equal(result.mcpConfigPath, claudeJson(w));
    assert.deepEqual(
      result.changes.filter((c) => c.kind.startsWith('mcp-')).map((c) => c.kind),
      ['mcp-added'],
    );
    const after = servers(claudeJson(w));
    assert.deepEqual(after.shim, { type: 'stdio', command: NOW.node, args: [NOW.bin, 'mcp'] });
    assert.deepEqual(Object.keys(after), ['github', 'shim']);
    const parsed = parseSettingsText(readFileSync(claudeJson(w), 'utf8'), 'x');
    assert.equal(parsed.numStartups, 12);
    assert.deepEqual(Object.keys(parsed), [
      'numStartups',
      'installMethod',
      'projects',
      'mcpServers',
      'userID',
    ]);
    assert.equal(readFileSync(result.mcpBackupPath!, 'utf8'), CLAUDE_JSON);
    assert.ok(loadInstallRecord(w.home, claudeJson(w)));

    // Idempotent: nothing changes, no second backup.
    const before = readFileSync(claudeJson(w));
    const again = installShim(options(w));
    assert.equal(again.changed, false);
    assert.deepEqual(readFileSync(claudeJson(w)), before);
    assert.equal(backups(w).length, 2);

    const removed = uninstallShim(options(w));
    assert.equal(removed.mcp.method, 'restored-backup');
    assert.ok(removed.changes.some((c) => c.kind === 'mcp-removed'));
    assert.equal(readFileSync(claudeJson(w), 'utf8'), CLAUDE_JSON);
    assert.equal(loadInstallRecord(w.home, claudeJson(w)), null);
  });

  test('user scope: when Claude Code rewrote .claude.json meanwhile, only shim’s server goes', () => {
    const w = world();
    writeFileSync(claudeJson(w), CLAUDE_JSON);
    installShim(options(w));
    const touched = readFileSync(claudeJson(w), 'utf8').replace(
      '"numStartups": 12',
      '"numStartups": 13',
    );
    writeFileSync(claudeJson(w), touched);
    const removed = uninstallShim(options(w));
    assert.equal(removed.mcp.method, 'surgical');
    const parsed = parseSettingsText(readFileSync(claudeJson(w), 'utf8'), 'x');
    assert.equal(parsed.numStartups, 13);
    assert.deepEqual(Object.keys(parsed.mcpServers as object), ['github']);
    assert.equal(uninstallShim(options(w)).mcp.method, 'nothing-to-do');
  });

  test('no .claude.json yet: shim creates it and uninstall deletes it again', () => {
    const w = world();
    installShim(options(w));
    assert.deepEqual(Object.keys(servers(claudeJson(w))), ['shim']);
    assert.equal(uninstallShim(options(w)).mcp.method, 'removed-file');
    assert.equal(existsSync(claudeJson(w)), false);
  });

  test('without CLAUDE_CONFIG_DIR the file is ~/.claude.json; a legacy .config.json wins', () => {
    const w = world();
    const home = join(w.project, 'fake-home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const previousHome = process.env.HOME;
    process.env.HOME = home;
    try {
      assert.equal(
        getMcpConfigPath('user', { env: {}, cwd: w.project }),
        join(home, '.claude.json'),
      );
      writeFileSync(join(home, '.claude', '.config.json'), '{}');
      assert.equal(
        getMcpConfigPath('user', { env: {}, cwd: w.project }),
        join(home, '.claude', '.config.json'),
      );
      assert.equal(
        getMcpConfigPath('user', { env: { CLAUDE_CONFIG_DIR: w.claude }, cwd: w.project }),
        join(w.claude, '.claude.json'),
      );
    } finally {
      process.env.HOME = previousHome;
    }
  });

  test('project scope: <project>/.mcp.json, kept byte for byte across install and uninstall', () => {
    const w = world();
    const mcpJson = join(w.project, '.mcp.json');
    const original = '{\n\t"mcpServers": {\n\t\t"db": { "command": "pg-mcp", "args": [] }\n\t}\n}';
    writeFileSync(mcpJson, original);
    const result = installShim(options(w, { scope: 'project' }));
    assert.equal(result.mcpConfigPath, mcpJson);
    assert.match(readFileSync(mcpJson, 'utf8'), /^\{\n\t"mcpServers"/);
    assert.deepEqual(Object.keys(servers(mcpJson)), ['db', 'shim']);
    assert.ok(result.notes.some((n) => n.includes('approve "shim"')));
    assert.equal(existsSync(claudeJson(w)), false, 'user scope untouched');
    assert.equal(uninstallShim(options(w, { scope: 'project' })).mcp.method, 'restored-backup');
    assert.equal(readFileSync(mcpJson, 'utf8'), original);
  });

  test('a moved shim replaces its old entry; a foreign server named "shim" is left alone', () => {
    const w = world();
    installShim(options(w, { invocation: OLD }));
    const moved = installShim(options(w));
    assert.ok(moved.changes.some((c) => c.kind === 'mcp-replaced'));
    assert.deepEqual(servers(claudeJson(w)).shim, {
      type: 'stdio',
      command: NOW.node,
      args: [NOW.bin, 'mcp'],
    });
    assert.equal(uninstallShim(options(w)).mcp.method, 'removed-file');

    const other = world();
    const foreign = '{"mcpServers":{"shim":{"command":"shim-proxy","args":["--port","1"]}}}';
    writeFileSync(claudeJson(other), foreign);
    const result = installShim(options(other));
    assert.ok(result.notes.some((n) => n.includes('not shim')));
    assert.equal(readFileSync(claudeJson(other), 'utf8'), foreign);
    uninstallShim(options(other));
    assert.equal(readFileSync(claudeJson(other), 'utf8'), foreign);
  });

  test('--dry-run shows the MCP change in the diff and writes nothing', () => {
    const w = world();
    writeFileSync(claudeJson(w), CLAUDE_JSON);
    const result = installShim(options(w, { dryRun: true }));
    assert.match(result.diff!, /^\+ {4}"shim": \{$/m);
    assert.equal(readFileSync(claudeJson(w), 'utf8'), CLAUDE_JSON);
  });

  test('an mcpServers that is not an object is refused before anything is written', () => {
    const w = world();
    writeFileSync(claudeJson(w), '{"mcpServers": []}');
    assert.throws(() => installShim(options(w)), AppError);
    assert.equal(readFileSync(w.settings, 'utf8'), REALISTIC_SETTINGS);
  });
});

describe("shim install with shim's mod", () => {
  function modSource(w: World): string {
    const path = join(w.project, 'shim-mod.js');
    writeFileSync(path, 'export function register(on) {}\n');
    return path;
  }

  test('declares SHIM_HOME/mod as a marketplace, enables its plugin, writes the plugin; again: no change', () => {
    const w = world();
    const mod = { source: modSource(w), version: '9.9.9' };
    const first = installShim(options(w, { mod }));
    assert.ok(first.changes.some((c) => c.kind === 'mod-added'));
    const settings = parseSettingsText(readFileSync(w.settings, 'utf8'), w.settings);
    assert.deepEqual(settings.enabledPlugins, { 'shim-mod@shim-mod': true });
    assert.deepEqual(settings.extraKnownMarketplaces, {
      'shim-mod': { source: { source: 'directory', path: join(w.home, 'mod') } },
    });
    const plugin = join(w.home, 'mod', 'shim-mod');
    assert.deepEqual(JSON.parse(readFileSync(join(plugin, 'hooks', 'hooks.json'), 'utf8')), {
      modules: ['./shim-mod.js'],
    });
    assert.equal(
      readFileSync(join(plugin, 'hooks', 'shim-mod.js'), 'utf8'),
      readFileSync(mod.source, 'utf8'),
    );
    assert.equal(
      (
        JSON.parse(
          readFileSync(join(w.home, 'mod', '.claude-plugin', 'marketplace.json'), 'utf8'),
        ) as { name: string }
      ).name,
      'shim-mod',
    );
    // The slash commands ride in the same plugin and start this shim.
    assert.deepEqual(readdirSync(join(plugin, 'commands')).sort(), [
      'checkpoint.md',
      'defer.md',
      'handoff.md',
      'loop.md',
      'shard.md',
    ]);
    assert.match(
      readFileSync(join(plugin, 'commands', 'checkpoint.md'), 'utf8'),
      /```!\n\/usr\/bin\/node \/opt\/shim\/dist\/shim\.js slash checkpoint --agent claude \$ARGUMENTS\n```/,
    );
    assert.equal(installShim(options(w, { mod })).changed, false);
  });

  test("keeps the user's plugins and marketplaces; uninstall takes out shim's only", () => {
    const w = world(
      JSON.stringify({
        enabledPlugins: { 'other@market': true },
        extraKnownMarketplaces: { market: { source: { source: 'github', repo: 'me/market' } } },
      }),
    );
    installShim(options(w, { mod: { source: modSource(w), version: '1.0.0' } }));
    // An edit after the install: uninstall has to go entry by entry.
    const edited = parseSettingsText(readFileSync(w.settings, 'utf8'), w.settings);
    writeFileSync(w.settings, JSON.stringify({ ...edited, theme: 'dark' }, null, 2));
    const removed = uninstallShim({
      scope: 'user',
      home: w.home,
      env: { CLAUDE_CONFIG_DIR: w.claude },
      cwd: w.project,
    });
    assert.equal(removed.method, 'surgical');
    assert.ok(removed.changes.some((c) => c.kind === 'mod-removed'));
    const after = parseSettingsText(readFileSync(w.settings, 'utf8'), w.settings);
    assert.deepEqual(after.enabledPlugins, { 'other@market': true });
    assert.deepEqual(after.extraKnownMarketplaces, {
      market: { source: { source: 'github', repo: 'me/market' } },
    });
    assert.equal(after.theme, 'dark');
  });

  test('containers shim created go away with it', () => {
    const w = world('{}');
    installShim(options(w, { mod: { source: modSource(w), version: '1.0.0' } }));
    writeFileSync(w.settings, readFileSync(w.settings, 'utf8').replace('{', '{"theme": "dark",'));
    uninstallShim({
      scope: 'user',
      home: w.home,
      env: { CLAUDE_CONFIG_DIR: w.claude },
      cwd: w.project,
    });
    const after = parseSettingsText(readFileSync(w.settings, 'utf8'), w.settings);
    assert.ok(
      !('enabledPlugins' in after) && !('extraKnownMarketplaces' in after),
      JSON.stringify(after),
    );
  });
});
