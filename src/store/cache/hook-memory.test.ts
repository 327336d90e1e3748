import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { claimOnce, claimUntilDone, settleClaim } from './hook-memory.ts';

const home = () => mkdtempSync(join(tmpdir(), 'shim-claims-'));

/** Claims `key` in another process that then exits, settling it first or not. */
function claimElsewhere(dir: string, key: string, settle: boolean): void {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('${join(import.meta.dirname, 'hook-memory.ts')}').then((m) => {
        if (!m.claimUntilDone(${JSON.stringify(dir)}, 's', ${JSON.stringify(key)})) process.exit(3);
        if (${settle}) m.settleClaim(${JSON.stringify(dir)}, 's', ${JSON.stringify(key)});
      })`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
}

describe('claims held until their work is done', () => {
  test('one holder at a time while it lives; taken for good once settled', () => {
    const h = home();
    assert.equal(claimUntilDone(h, 's', 'ckpt-1'), true);
    assert.equal(claimUntilDone(h, 's', 'ckpt-1'), false, 'this process still holds it');
    settleClaim(h, 's', 'ckpt-1');
    assert.equal(claimUntilDone(h, 's', 'ckpt-1'), false);
  });

  test('an owner that died before settling: taken over once, by one process', () => {
    const h = home();
    claimElsewhere(h, 'ckpt-2', false);
    assert.equal(claimUntilDone(h, 's', 'ckpt-2'), true, 'its owner is gone');
    assert.equal(claimUntilDone(h, 's', 'ckpt-2'), false, 'now this process holds it');
  });

  test('an owner that settled and exited: never taken again', () => {
    const h = home();
    claimElsewhere(h, 'ckpt-3', true);
    assert.equal(claimUntilDone(h, 's', 'ckpt-3'), false);
  });

  test('a plain claim is taken for good, whoever asks how', () => {
    const h = home();
    assert.equal(claimOnce(h, 's', 'alert-0-L2'), true);
    assert.equal(claimUntilDone(h, 's', 'alert-0-L2'), false);
  });
});
