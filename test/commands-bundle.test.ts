/**
 * bin/shim.cjs runs every command but the hooks' and status's plain forms from dist/commands.cjs,
 * one CommonJS bundle loaded through V8's code cache, not from the ES-module CLI (dist/cli.js,
 * its chunks resolved, linked and compiled afresh on every run). Both are built from the same
 * sources and must say the same thing; the bundle leaves the rare commands' packages in
 * node_modules until such a command runs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';

const ESM_CLI = resolve(BIN, '..', '..', 'dist', 'cli.js');

function runEsm(home: string, args: string[]) {
  const r = spawnSync(process.execPath, [ESM_CLI, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      SHIM_HOME: home,
      CLAUDE_CONFIG_DIR: join(home, 'no-claude'),
      NO_COLOR: '1',
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const cachedBundles = (home: string) =>
  readdirSync(join(home, 'cache', 'v8'))
    .map((name) => name.replace(/\.cjs-.*/, ''))
    .sort();

describe('the commands from their CommonJS bundle', () => {
  // Each form is two processes, so a few of each kind (every command's help matched when the
  // bundle came in, 2026-11-29): the top help, a command's own and a group's, the version, a
  // mistake commander answers, and an error of shim's own boundary.
  test('help, version and mistakes: the same answer as the ES-module CLI', () => {
    const home = join(makeTempDir('shim-commands-'), 'shim');
    const forms = [
      ['--help'],
      ['list', '--help'],
      ['team', '--help'],
      ['--version'],
      ['no-such-command'],
      ['show', 'no-such-checkpoint'],
    ];
    for (const args of forms)
      assert.deepEqual(runShim(home, args), runEsm(home, args), `shim ${args.join(' ')}`);
  });

  test('a command runs from dist/commands.cjs with the code cache, and loads no server or driver', () => {
    const dir = makeTempDir('shim-commands-');
    const home = join(dir, 'shim');
    mkdirSync(home);
    const preload = join(dir, 'required.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => require('node:fs').writeSync(2, `\\nrequired: ${Object.keys(require.cache).join(',')}\\n`));",
    );
    const list = () => {
      const r = spawnSync(process.execPath, ['--require', preload, BIN, 'list', '--all'], {
        encoding: 'utf8',
        env: { ...process.env, SHIM_HOME: home, NO_COLOR: '1' },
      });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /no checkpoints/);
      return r.stderr.split('required: ')[1]!.trim().split(',');
    };
    const first = list();
    assert.deepEqual(cachedBundles(home), ['commands']);
    const files = readdirSync(join(home, 'cache', 'v8'));
    const second = list();
    assert.deepEqual(readdirSync(join(home, 'cache', 'v8')), files, 'kept, not rewritten');
    // The store's driver is what list needs; the dashboard's and MCP servers, the team store's
    // driver and query builder stay unloaded.
    for (const required of [first, second]) {
      assert.ok(
        required.some((path) => path.includes('@photostructure/sqlite')),
        'the store is used',
      );
      const rare = required.filter((path) =>
        /node_modules\/(pg|kysely|hono|@hono|@modelcontextprotocol)\//.test(path),
      );
      assert.deepEqual(rare, []);
    }
  });
});
