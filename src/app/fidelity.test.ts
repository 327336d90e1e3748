import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixturePath, listFixtures } from '../../test/helpers/fixtures.ts';
import { compareWithCompactionSummaries } from './fidelity.ts';

test("the resume prompt carries every request, changed file and open task, at least as well as Claude Code's summary", () => {
  let compared = 0;
  for (const name of listFixtures()) {
    for (const c of compareWithCompactionSummaries(fixturePath(name))) {
      compared++;
      assert.deepEqual(c.shim.missing, [], `${name} compaction at line ${c.compactionLine}`);
      assert.ok(c.shim.found >= c.claude.found);
      assert.ok(c.shimChars <= 24_000, `${c.shimChars} characters`);
    }
  }
  assert.equal(compared, 7);
});
