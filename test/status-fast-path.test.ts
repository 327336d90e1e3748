/**
 * bin/shim.cjs answers the plain forms of `shim status` from dist/status.cjs, not the full CLI
 * (dist/cli.js). Both must say the same thing: output, errors and exit codes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { BIN } from './helpers/cli.ts';
import { fixturePath, gzFixturePath, makeTempDir } from './helpers/fixtures.ts';

const FULL_CLI = resolve(BIN, '..', '..', 'dist', 'cli.js');
const FIXTURE = fixturePath('entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl');

/** The fixture where Claude Code keeps a session's log (named by its id), plain or gzipped. */
function asClaudeLog(dir: string, source: string): string {
  const path = join(
    dir,
    '.claude',
    'projects',
    '-work-app',
    `9b04c3d9-2e38-4000-8000-000000000001${extname(source) === '.gz' ? '.jsonl.gz' : '.jsonl'}`,
  );
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(source, path);
  return path;
}

function run(entry: string[], args: string[], home: string, color = false) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHIM_HOME: home,
    CLAUDE_CONFIG_DIR: join(home, 'no-claude'),
    NO_COLOR: '1',
    COLUMNS: '100',
  };
  // Colours decided as for a user (NO_COLOR would decide before the terminal is asked).
  if (color) for (const name of ['NO_COLOR', 'FORCE_COLOR', 'CI']) delete env[name];
  const r = spawnSync(process.execPath, [...entry, ...args], { encoding: 'utf8', env });
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

  test('the plain forms run from dist/status.cjs, with no other agent than the one the log is', () => {
    const dir = makeTempDir('shim-status-fast-');
    const home = join(dir, 'shim');
    const cached = () =>
      readdirSync(join(home, 'cache', 'v8'))
        .map((name) => name.replace(/\.cjs-.*/, ''))
        .sort();
    const log = asClaudeLog(dir, FIXTURE);
    assert.equal(run([BIN, 'status'], [log, '--json'], home).status, 0);
    // Each agent comes from its own bundle (agents/agent-bundles.ts), loaded when asked: a
    // Claude Code log is Claude Code's before any other agent is asked. The first look folds
    // the log, so it redacts: the scanner comes from its own bundle.
    assert.deepEqual(cached(), ['agent-claude', 'redact', 'status']);
    // A bundle loaded without a cache saves one at exit: an emptied cache shows what a call
    // loaded. Looking again (the cursor current) redacts nothing and loads no scanner.
    rmSync(join(home, 'cache', 'v8'), { recursive: true });
    assert.equal(run([BIN, 'status'], [log], home).status, 0);
    assert.deepEqual(cached(), ['agent-claude', 'status']);
  });

  test('through a pipe it loads no stream: no node:net, node:stream or node:zlib', () => {
    const dir = makeTempDir('shim-status-fast-');
    const home = join(dir, 'shim');
    const preload = join(dir, 'loaded.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => require('node:fs').writeSync(2, `\\nloaded: ${process.moduleLoadList.join(',')}\\n`));",
    );
    const loaded = (args: string[]) => {
      const r = run(['--require', preload, BIN, 'status'], args, home, true);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^shim · session /);
      return r.stderr.split('loaded: ')[1]!.trim().split(',');
    };
    // A gzipped log loads zlib, as it must: the check below sees what it looks for.
    const gz = loaded([asClaudeLog(dir, gzFixturePath(basename(FIXTURE)))]);
    assert.ok(gz.includes('NativeModule zlib'));
    const plain = loaded([asClaudeLog(dir, FIXTURE)]);
    for (const module of ['net', 'stream', 'zlib', 'tty'])
      assert.ok(!plain.includes(`NativeModule ${module}`), `${module} loaded`);
  });
});
