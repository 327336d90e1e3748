import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '../../test/helpers/fixtures.ts';
import { compiledScript } from '../../test/helpers/script-process.ts';
import { writeStdout } from './stdout.ts';

test('writes all of a text, also beyond one pipe buffer', () => {
  const file = join(makeTempDir('shim-stdout-'), 'out.txt');
  const fd = openSync(file, 'w');
  writeStdout('héllo\n', fd);
  closeSync(fd);
  assert.equal(readFileSync(file, 'utf8'), 'héllo\n');
  // Through a real pipe, 1 MB: the reader is slower than the writer.
  const writer = compiledScript(join(import.meta.dirname, 'stdout-writer.test-helper.ts'));
  const r = spawnSync(process.execPath, [writer], {
    encoding: 'utf8',
    maxBuffer: 4 * 1024 * 1024,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.length, 1024 * 1024 + 1);
});
