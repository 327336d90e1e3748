/**
 * The preload every test file runs with (test-file-process.ts): a file whose process something
 * still holds after its tests fails and names the holder; a file whose `after` hooks take longer
 * than the grace (a server stopping under load) passes — the grace counts from the last hook's
 * end, not from the last test's. Each case is a real `node --test` run of a small file.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeTempDir } from './fixtures.ts';
import { REPO_ROOT } from './store.ts';

const PRELOAD = join(import.meta.dirname, 'test-file-process.ts');
const dir = makeTempDir('shim-test-file-process-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one test file under Node's runner with the preload and a grace of `graceMs`. */
function runFile(
  name: string,
  source: string,
  graceMs: number,
): Promise<{ code: number | null; output: string }> {
  const file = join(dir, name);
  writeFileSync(file, source);
  const env: NodeJS.ProcessEnv = { ...process.env, SHIM_TEST_EXIT_GRACE_MS: String(graceMs) };
  // This file runs under a runner itself: the run below must be a runner of its own.
  delete env.NODE_TEST_CONTEXT;
  delete env.SHIM_TEST_CPU_LOG;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx/esm', '--import', PRELOAD, '--test', '--test-reporter=spec', file],
    { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

test('a timer left behind: the file fails, naming what holds it', async () => {
  const { code, output } = await runFile(
    'lingers.test.mjs',
    "import { test } from 'node:test';\n" +
      "test('leaves a timer', () => { setTimeout(() => {}, 3_600_000); });\n",
    300,
  );
  assert.equal(code, 1, output);
  assert.match(output, /still held by Timeout/);
});

test('after hooks slower than the grace: the file passes', async () => {
  const { code, output } = await runFile(
    'slow-after.test.mjs',
    "import { after, describe, test } from 'node:test';\n" +
      'const pause = (ms) => new Promise((r) => setTimeout(r, ms));\n' +
      "describe('d', () => { test('ok', () => {}); after(() => pause(1_000)); });\n" +
      'after(async () => { await pause(2_000); });\n' +
      'after((t, done) => { setTimeout(done, 1_000); });\n',
    200,
  );
  assert.equal(code, 0, output);
  assert.doesNotMatch(output, /still held/);
});

test('slow tests and no after hook: the grace counts from the tests, not the start', async () => {
  // Tests longer than the grace, then a process that takes a moment to exit (less than the
  // grace, more than the watch's tick): failed when the grace was counted from the file's start
  // ('finished 587.7 s ago … held by nothing', test/cli.test.ts under load).
  const { code, output } = await runFile(
    'slow-tests.test.mjs',
    "import { test } from 'node:test';\n" +
      "test('slow', async () => { await new Promise((r) => setTimeout(r, 2_500)); setTimeout(() => {}, 1_500); });\n",
    2_000,
  );
  assert.equal(code, 0, output);
  assert.doesNotMatch(output, /still held/);
});

test('a file that ends what it starts exits with its tests', async () => {
  const { code, output } = await runFile(
    'clean.test.mjs',
    "import { test } from 'node:test';\n" + "test('ok', () => {});\n",
    60_000,
  );
  assert.equal(code, 0, output);
});
