/**
 * bin/shim.cjs answers the plain forms of `shim status` from dist/status.cjs, not the full CLI
 * (dist/cli.js). Both must say the same thing: output, errors and exit codes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { BIN } from './helpers/cli.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';

const FULL_CLI = resolve(BIN, '..', '..', 'dist', 'cli.js');
const FIXTURE = fixturePath('entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl');

function run(entry: string[], args: string[], home: string) {
  const r = spawnSync(process.execPath, [...entry, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      SHIM_HOME: home,
      CLAUDE_CONFIG_DIR: join(home, 'no-claude'),
      NO_COLOR: '1',
      COLUMNS: '100',
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('shim status from its own bundle', () => {
  const cases: Array<[string, string[]]> = [
    ['json, no history', [FIXTURE, '--json', '--no-history']],
    ['text', [FIXTURE, '--no-history']],
    ['with history', [FIXTURE]],
    ['a transcript that is not there', ['/nonexistent/session.jsonl']],
    ['a session id nobody has', ['-s', 'no-such-session']],
    ['help (the full CLI answers)', ['--help']],
    ['an unknown option (the full CLI answers)', ['--bogus']],
  ];
  for (const [name, args] of cases) {
    test(`${name}: the same answer as the full CLI`, () => {
      const home = join(makeTempDir('shim-status-fast-'), 'shim');
      // The clock moves between the two runs; nothing else may differ.
      const steady = (r: ReturnType<typeof run>) => ({
        ...r,
        stdout: r.stdout.replace(/("timeSinceLastResponse": )\d+/, '$1…'),
      });
      const full = steady(run([FULL_CLI, 'status'], args, home));
      const fast = steady(run([BIN, 'status'], args, home));
      assert.ok(fast.status === full.status && fast.stdout === full.stdout, 'same output');
      assert.equal(fast.stderr, full.stderr);
    });
  }

  test('the plain forms run from dist/status.cjs: its code cache is written', () => {
    const home = join(makeTempDir('shim-status-fast-'), 'shim');
    const cached = () => readdirSync(join(home, 'cache', 'v8'), { withFileTypes: true });
    assert.equal(run([BIN, 'status'], [FIXTURE, '--json'], home).status, 0);
    // Each agent the file is told against comes from its own bundle (agents/agent-bundles.ts).
    assert.deepEqual(
      cached()
        .map((f) => f.name.replace(/\.cjs-.*/, ''))
        .sort(),
      ['agent-claude', 'agent-codex', 'agent-gemini', 'status'],
    );
  });
});
