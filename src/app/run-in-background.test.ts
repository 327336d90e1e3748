import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { checkpointInBackground, isShimBinary, runShimInBackground } from './run-in-background.ts';

const home = mkdtempSync(join(tmpdir(), 'shim-run-in-background-'));
after(() => rmSync(home, { recursive: true, force: true }));

// A test file (or any library caller) is not shim: starting its own entry with shim's arguments
// ran the test file again, which started itself again (a compiled test run forked without end).
test('a process that is not the shim binary starts nothing', async () => {
  assert.equal(isShimBinary(), false, `this test runs as ${process.argv[1]}`);
  const started = await runShimInBackground(['background', 'warm-look'], home, {}, home);
  assert.equal(started, false);
  await checkpointInBackground(
    { transcriptPath: join(home, 'session.jsonl'), cwd: home, agent: 'claude' },
    'tool_call_interval',
    'test',
    {},
    home,
  );
  // Nothing tried and failed either: no log line about a start.
  assert.deepEqual(readdirSync(home), []);
});
