/** `shim link` as a user runs it: name the issue, see it, clear it; mistakes say what to give. */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runShim } from '../helpers/cli.ts';
import { makeTempDir } from '../helpers/fixtures.ts';

test('shim link: set, show, clear, and a clear error for what is not an issue', () => {
  const root = makeTempDir('shim-link-');
  const project = join(root, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const home = join(root, 'shim');
  const shim = (...args: string[]) => runShim(home, args, { cwd: project });

  const none = shim('link');
  assert.equal(none.status, 0, none.stderr);
  assert.match(
    none.stdout,
    /^no issue linked for .*project; a session's branch or requests may still name one/,
  );

  const set = shim('link', 'ANV-123');
  assert.equal(set.status, 0, set.stderr);
  assert.match(set.stdout, /^ANV-123 \(linear\) for .*project\n$/);
  const shown = JSON.parse(shim('link', '--json').stdout) as {
    issue: { ref: { key: string }; source: string; scope: string };
  };
  assert.deepEqual(
    [shown.issue.ref.key, shown.issue.source, shown.issue.scope],
    ['ANV-123', 'linked', 'project'],
  );

  const url = shim('link', 'https://github.com/acme/api/issues/7');
  assert.match(url.stdout, /^acme\/api#7 \(github\)/);

  const cleared = shim('link', '--clear');
  assert.equal(cleared.status, 0);
  assert.match(cleared.stdout, /nothing will be synced from it/);
  assert.equal(JSON.parse(shim('link', '--json').stdout).issue, null);

  const bad = shim('link', 'not an issue');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /not an issue: not an issue/);
  assert.match(bad.stderr, /ANV-123, 123, #123, owner\/repo#123 or an issue URL/);
  const both = shim('link', 'ANV-1', '--clear');
  assert.equal(both.status, 1);
});
