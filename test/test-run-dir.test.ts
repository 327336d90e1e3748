/**
 * The runner's own temp directory (scripts/test-run-dir.mjs): every test process's TMPDIR is the
 * run's, and nothing the tests leave there outlives the run — not even what they made unwritable.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a plain ES module of the runner's, no types
import { removeRunDir } from '../scripts/test-run-dir.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const RUN_TMP = /[\\/]shim-test-run-[^\\/]+[\\/]tmp$/;
const underRunner = RUN_TMP.test(process.env.TMPDIR ?? '');
const nested = process.env.SHIM_TEST_RUN_DIR_NESTED === '1';

/** A home the way some tests leave theirs: a store, a read-only folder, one nobody may enter. */
function leaveMess(parent: string): void {
  const home = mkdtempSync(join(parent, 'shim-home-'));
  writeFileSync(join(home, 'shim.db'), 'rows');
  mkdirSync(join(home, 'locked', 'inner'), { recursive: true });
  writeFileSync(join(home, 'locked', 'inner', 'file'), 'x');
  chmodSync(join(home, 'locked', 'inner'), 0o500);
  chmodSync(join(home, 'locked'), 0o000);
}

test(
  "a test process's temp directory is the run's own",
  { skip: underRunner ? false : 'not started by scripts/test.mjs' },
  () => {
    assert.match(tmpdir(), RUN_TMP);
    leaveMess(tmpdir());
  },
);

test(
  'a run leaves nothing in the temp directory it was given',
  { skip: nested ? 'the run this test starts' : false },
  () => {
    const given = mkdtempSync(join(tmpdir(), 'shim-given-tmp-'));
    // Not as a child of this test runner (NODE_TEST_CONTEXT would make its runner report to this one).
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const run = spawnSync(process.execPath, ['scripts/test.mjs', 'test/test-run-dir.test.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...env, TMPDIR: given, SHIM_TEST_RUN_DIR_NESTED: '1' },
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^2 passed, 0 failed$/m);
    assert.deepEqual(readdirSync(given), []);
  },
);

test('removing a run directory opens up what a test left unwritable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shim-run-dir-'));
  leaveMess(dir);
  assert.equal(removeRunDir(dir), null);
  assert.throws(() => readdirSync(dir), { code: 'ENOENT' });
});
