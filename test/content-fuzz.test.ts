// test-speed: slow (a slice of the soak: nasty content through every hook)
/**
 * A fast slice of `npm run soak -- --only content`: nasty strings (PEM fragments, NUL bytes,
 * lone surrogates, deep JSON, ANSI escapes, bidi marks, `</script>`, gitleaks samples, a 5 MB
 * line) injected into real transcripts. Every hook exits 0, every session is checkpointed,
 * `resume --print` and `ui --export` work, nothing raw is left.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { runContentFuzz } from '../soak/content-fuzz.ts';
import { seededRandom } from '../soak/random.ts';
import { makeSandbox } from '../soak/sandbox.ts';
import { FIXTURES_MISSING } from './helpers/fixtures.ts';

test(
  'nasty content in real transcripts: hooks exit 0, checkpoints stored, resume and export work, nothing raw',
  { timeout: 900_000, skip: FIXTURES_MISSING },
  async () => {
    const sandbox = makeSandbox();
    try {
      const seed = 26_026;
      const report = await runContentFuzz(sandbox, seededRandom(seed), {
        sessions: 2,
        perSession: 40,
        huge: true,
        lines: 150,
        width: 2,
        progress: () => {},
      });
      assert.deepEqual(report.failures, [], `seed ${seed}`);
      assert.deepEqual(report.leaked, []);
      assert.ok(report.injected >= 70, `${report.injected} strings injected`);
      assert.equal(report.hooks, 10);
      assert.ok(report.checkpoints >= 2);
      // Each export is searched for an unescaped </script> (a failure above); at least one must
      // hold the injected one, escaped, so the search had something to find (which checkpoint
      // text keeps the string depends on where the fuzz put it).
      assert.ok(report.scriptsChecked >= 1, 'an export holds the injected </script>, escaped');
    } finally {
      rmSync(sandbox.root, { recursive: true, force: true });
    }
  },
);
