import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { compiledScript } from '../../../test/helpers/script-process.ts';

// The pull child: ./pull-child.test-helper.ts, compiled once (no tsx per start).
let child: string | undefined;

function runChild(fd3: 'pipe' | number, env: NodeJS.ProcessEnv) {
  child ??= compiledScript(join(import.meta.dirname, 'pull-child.test-helper.ts'));
  return spawn(process.execPath, [child], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', fd3],
  });
}

test('the pull child says "pulled" on the session start’s pipe before it exits', async () => {
  const child = runChild('pipe', { SHIM_TEAM_PULL_DONE_FD: '3', STAY_MS: '60000' });
  try {
    const said = await new Promise<string>((resolve, reject) => {
      child.stdio[3]!.once('data', (data: Buffer) => resolve(String(data)));
      child.once('exit', (code) => reject(new Error(`exited (${code}) without saying it`)));
    });
    assert.equal(said, 'pulled\n');
    assert.equal(child.exitCode, null, 'still running: the wait ended on the word, not the exit');
  } finally {
    child.kill();
    await new Promise((resolve) =>
      child.exitCode !== null ? resolve(null) : child.once('exit', resolve),
    );
  }
});

test('tellPulled writes nothing where no session start asked, nor into a file given as fd 3', async () => {
  const dir = makeTempDir('shim-pull-done-');
  const file = join(dir, 'fd3.txt');
  for (const env of [{}, { SHIM_TEAM_PULL_DONE_FD: '3' }]) {
    const fd = openSync(file, 'w');
    try {
      const child = runChild(fd, { ...env, STAY_MS: '0' });
      const code = await new Promise((resolve) => child.once('exit', resolve));
      assert.equal(code, 0);
    } finally {
      closeSync(fd);
    }
    assert.equal(readFileSync(file, 'utf8'), '', JSON.stringify(env));
  }
});
