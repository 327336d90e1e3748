import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../../test/helpers/fixtures.ts';
import { getManagedSettingsPath, readCompactSettings } from './compact-settings.ts';

function layout(
  files: Partial<Record<'managed' | 'local' | 'project' | 'user' | 'global', unknown>>,
) {
  const root = makeTempDir('shim-settings-');
  const project = join(root, 'project');
  const claude = join(root, 'claude');
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(claude, { recursive: true });
  const paths = {
    managed: join(root, 'managed-settings.json'),
    local: join(project, '.claude', 'settings.local.json'),
    project: join(project, '.claude', 'settings.json'),
    user: join(claude, 'settings.json'),
    global: join(claude, '.claude.json'),
  };
  for (const [scope, content] of Object.entries(files))
    writeFileSync(
      paths[scope as keyof typeof paths],
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  return readCompactSettings({
    cwd: project,
    env: { CLAUDE_CONFIG_DIR: claude },
    managedPath: paths.managed,
  });
}

describe('readCompactSettings', () => {
  test('autoCompactEnabled from a settings file or the global config, settings first', () => {
    const off = layout({ global: { autoCompactEnabled: false, numStartups: 3 } });
    assert.deepEqual(
      off.windows.map((w) => [w.path.endsWith('.claude.json'), w.autoCompactEnabled]),
      [[true, false]],
    );
    const both = layout({
      project: { autoCompactEnabled: true },
      global: { autoCompactEnabled: false },
    });
    assert.deepEqual(
      both.windows.map((w) => w.autoCompactEnabled),
      [true, false],
    );
  });

  test('files that set a window come highest precedence first', () => {
    const result = layout({
      user: { autoCompactWindow: 180_000 },
      project: { autoCompactWindow: 150_000 },
      managed: { modelSettings: { 'claude-opus-4-6': { autoCompactWindow: 120_000 } } },
    });
    assert.deepEqual(
      result.windows.map((w) => [w.scope, w.autoCompactWindow, w.modelWindows]),
      [
        ['managed', null, { 'claude-opus-4-6': 120_000 }],
        ['project', 150_000, {}],
        ['user', 180_000, {}],
      ],
    );
  });

  test("threshold variables in the files' env blocks, the higher file winning; others ignored", () => {
    const result = layout({
      user: { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '80', ANTHROPIC_API_KEY: 'sk-no' } },
      local: { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '60', CLAUDE_CODE_DISABLE_1M_CONTEXT: 1 } },
    });
    assert.deepEqual(result.env, {
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '60',
      CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
    });
  });

  test('broken, missing and odd files are skipped', () => {
    const result = layout({
      user: '{ not json',
      project: [1, 2],
      local: { autoCompactWindow: 'big', modelSettings: { x: { autoCompactWindow: -5 } } },
    });
    assert.deepEqual(result, { windows: [], env: {} });
  });

  test('managed settings live where the platform keeps them', () => {
    assert.equal(getManagedSettingsPath('linux'), '/etc/claude-code/managed-settings.json');
    assert.match(getManagedSettingsPath('darwin'), /^\/Library\/Application Support\/ClaudeCode\//);
  });
});
