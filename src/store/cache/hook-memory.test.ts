import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { compiledScript } from '../../../test/helpers/script-process.ts';
import { claimOnce, claimUntilDone, settleClaim, settleClaimWithAnswer } from './hook-memory.ts';

const home = () => mkdtempSync(join(tmpdir(), 'shim-claims-'));
const claimer = () => compiledScript(join(import.meta.dirname, 'claim-elsewhere.test-helper.ts'));

/**
 * Claims `key` in another process that then exits: settling it first or not, or settling it with
 * its answer inside a write buffer (the warm look's) that it flushes or not before it exits.
 */
function claimElsewhere(
  dir: string,
  key: string,
  settle: boolean | 'with-answer, flushed' | 'with-answer, killed before flushing',
): void {
  const how = settle === true ? 'settled' : settle === false ? 'unsettled' : settle;
  // ./claim-elsewhere.test-helper.ts
  const r = spawnSync(process.execPath, [claimer(), dir, key, how], { encoding: 'utf8' });
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

  test("a notice settled with the answer: in the warm look, only once the answer's writes are out", () => {
    const h = home();
    assert.equal(claimUntilDone(h, 's', 'alert-0-L1'), true);
    settleClaimWithAnswer(h, 's', 'alert-0-L1');
    assert.equal(claimUntilDone(h, 's', 'alert-0-L1'), false, 'in a hook of its own: at once');
    claimElsewhere(h, 'alert-0-L2', 'with-answer, flushed');
    assert.equal(claimUntilDone(h, 's', 'alert-0-L2'), false, 'told with its answer');
    claimElsewhere(h, 'alert-0-L3', 'with-answer, killed before flushing');
    assert.equal(claimUntilDone(h, 's', 'alert-0-L3'), true, 'never told: the next asker tells it');
  });

  test('a plain claim is taken for good, whoever asks how', () => {
    const h = home();
    assert.equal(claimOnce(h, 's', 'alert-0-L2'), true);
    assert.equal(claimUntilDone(h, 's', 'alert-0-L2'), false);
  });
});
