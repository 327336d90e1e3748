import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { installCodex } from './install.ts';

describe('shim install --agent codex', () => {
  test('SHIM_HOME it creates is the owner’s only, as every other writer makes it', () => {
    const root = mkdtempSync(join(tmpdir(), 'shim-codex-install-'));
    const home = join(root, 'shim');
    const codexHome = join(root, 'user', '.codex');
    mkdirSync(codexHome, { recursive: true });
    const env = { HOME: join(root, 'user'), CODEX_HOME: codexHome, SHIM_HOME: home };
    const shim = { node: process.execPath, bin: join(root, 'pkg', 'dist', 'shim.js') };
    installCodex({ scope: 'user', shim, dryRun: false, home, env, cwd: root });
    assert.equal(statSync(home).mode & 0o777, 0o700);
    assert.equal(statSync(join(home, 'installs')).mode & 0o777, 0o700);
    assert.equal(statSync(join(home, 'installs', 'codex.json')).mode & 0o777, 0o600);
  });
});
