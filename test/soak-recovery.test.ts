// test-speed: slow (a slice of the soak: hooks racing on damaged stores)
/**
 * A fast slice of `npm run soak -- --only recovery`: damaged stores (rows whose compressed data
 * is broken, zeroed pages, both) with checkpoints and hooks racing on them. Nothing a process
 * acknowledged is lost, the store is moved aside once per damage, every session checkpoints.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { runRecovery } from '../soak/recovery.ts';
import { seededRandom } from '../soak/random.ts';
import { makeSandbox } from '../soak/sandbox.ts';

test(
  'recovery under racing hooks: no acknowledged checkpoint lost, no session unable to checkpoint',
  { timeout: 600_000 },
  async () => {
    const sandbox = makeSandbox();
    try {
      const seed = 25_007;
      const report = await runRecovery(sandbox, seededRandom(seed), {
        rounds: 3,
        racers: 6,
        progress: () => {},
      });
      assert.deepEqual(report.failures, [], `seed ${seed}`);
      assert.deepEqual(report.lost, []);
      assert.equal(report.rounds, 3);
      assert.ok(report.acknowledged >= 3 * sandbox.transcripts.length);
      assert.ok(report.recoveredRounds >= 2, 'the zeroed pages were found and recovered');
      assert.ok(report.movedAside <= 3, `one recovery per damage, moved ${report.movedAside}×`);
    } finally {
      rmSync(sandbox.root, { recursive: true, force: true });
    }
  },
);
