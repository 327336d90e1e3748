/**
 * bin/shim.cjs loads the per-call bundles with V8's code cache (SHIM_HOME/cache/v8). A bundle
 * compiled from a cache must behave as one compiled from source, lazy loads included (Node 20
 * drops a cached script's dynamic import(): a compressed transcript needs node:zlib loaded late).
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { FIXTURE_DIR, makeTempDir } from './helpers/fixtures.ts';

const GZ = 'entire-2372de7ea2ff-auto-compact-155k-todowrite-v2.1.5.jsonl.gz';

describe('per-call bundles with the code cache', () => {
  test('the first call writes the cache, the next runs from it with the same answer', () => {
    const home = join(makeTempDir('shim-code-cache-'), 'shim');
    const input = JSON.stringify({
      session_id: 'code-cache',
      transcript_path: join(FIXTURE_DIR, GZ),
      cwd: '/tmp',
      model: { id: 'claude-opus-4-6', display_name: 'Opus' },
    });
    const first = runShim(home, ['statusline'], { input });
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /CTX/);
    const cached = readdirSync(join(home, 'cache', 'v8'));
    assert.equal(cached.length, 1);
    assert.match(cached[0]!, /^statusline\.cjs-\d+-\d+-v\d+\.\d+\.\d+-\w+-\w+\.bin$/);
    const second = runShim(home, ['statusline'], { input });
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, first.stdout);
    assert.deepEqual(readdirSync(join(home, 'cache', 'v8')), cached, 'kept, not rewritten');
  });
});
