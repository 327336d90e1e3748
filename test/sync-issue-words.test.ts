/**
 * Issue 42 item 7: every place that says where a session's tracker issue comes from says what
 * the code does (core/sync/issue-ref.ts): a link, the branch, the session it was restored from —
 * a request's text only with `sync.fromRequests`, which is off by default.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';

/** Words that say a request's text names the issue, without the setting it needs. */
const STALE = /newest request (?:that names|naming) one|by its branch \([^)]*\), a request,/;

test('shim link --help, doctor and the README say a request names the issue only with sync.fromRequests', () => {
  const home = join(makeTempDir('shim-sync-words-'), 'shim');
  const help = runShim(home, ['link', '--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.doesNotMatch(help.stdout, STALE);
  assert.match(help.stdout, /else the session it was restored from/);
  assert.match(help.stdout, /"fromRequests": true/);

  const doctor = runShim(home, ['doctor', '--json']);
  const sync = (
    JSON.parse(doctor.stdout) as { checks: Array<{ id: string; detail: string }> }
  ).checks.find((c) => c.id === 'sync');
  assert.ok(sync, doctor.stdout);
  assert.doesNotMatch(sync.detail, STALE);
  assert.match(sync.detail, /fromRequests/);

  const readme = readFileSync(resolve(import.meta.dirname, '..', 'README.md'), 'utf8');
  const tracker = readme.slice(
    readme.indexOf('### Tracker sync'),
    readme.indexOf('### Team store'),
  );
  assert.doesNotMatch(tracker.replace(/\s+/g, ' '), STALE);
  assert.match(
    tracker.replace(/\s+/g, ' '),
    /a request's text names it only with `"sync": \{"fromRequests": true\}`/,
  );
});
