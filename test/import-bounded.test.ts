/**
 * `shim import` reads its input up to a bound: a device or an endless pipe is refused in one line
 * instead of filling memory until the process is killed (issue 42 item 20).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';

describe('shim import reads a bounded input', () => {
  test('a file that never ends (/dev/zero) is refused past 256 MiB, in one line', () => {
    const home = makeTempDir('shim-import-bound-');
    const run = runShim(home, ['import', '/dev/zero']);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /\/dev\/zero holds more than 256 MiB: not a shim session export/);
    assert.doesNotMatch(run.stderr, /unexpected error|bug in shim|heap/);
  });

  test('an endless pipe on standard input is refused the same way', () => {
    const home = makeTempDir('shim-import-bound-');
    const run = spawnSync('/bin/sh', ['-c', `yes | "${process.execPath}" "${BIN}" import -`], {
      encoding: 'utf8',
      env: { ...process.env, SHIM_HOME: home },
    });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /standard input holds more than 256 MiB: not a shim session export/);
  });
});
