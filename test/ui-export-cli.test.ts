/** `shim ui --export` where a user's paths are not as expected: a missing folder, a transcript gone. */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';

const NAME = 'spotter-short-v2.1.38.jsonl';

test('ui --export: a missing folder is made; a file in the way is a clear error; a transcript gone still exports the checkpoints', () => {
  const root = makeTempDir();
  const home = join(root, 'shim');
  const transcript = join(root, NAME);
  copyFileSync(fixturePath(NAME), transcript);
  const cp = runShim(home, ['checkpoint', '--transcript', transcript, '--json']);
  assert.equal(cp.status, 0, cp.stderr);
  const { sessionId, checkpointId } = JSON.parse(cp.stdout) as {
    sessionId: string;
    checkpointId: string;
  };

  const nested = join(root, 'reports', 'today', 'session.html');
  const made = runShim(home, ['ui', '--export', nested, '--session', sessionId]);
  assert.equal(made.status, 0, made.stderr);
  assert.ok(existsSync(nested));

  writeFileSync(join(root, 'a-file'), 'x');
  const blocked = runShim(home, [
    'ui',
    '--export',
    join(root, 'a-file', 's.html'),
    '--session',
    sessionId,
  ]);
  assert.equal(blocked.status, 1);
  assert.match(blocked.stderr, /cannot write .*s\.html/);
  assert.doesNotMatch(blocked.stderr, /bug in shim/);

  rmSync(transcript);
  const gone = join(root, 'gone.html');
  const stored = runShim(home, ['ui', '--export', gone, '--session', sessionId]);
  assert.equal(stored.status, 0, stored.stderr);
  assert.ok(readFileSync(gone, 'utf8').includes(checkpointId), 'its checkpoints are in it');

  const unknown = runShim(home, [
    'ui',
    '--export',
    join(root, 'x.html'),
    '--session',
    'no-such-session',
  ]);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /no transcript and no checkpoints for session no-such-session/);
});
