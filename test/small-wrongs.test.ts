/** Issue 25's small wrongs at the CLI: one behaviour for a bad config, help that names every key. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';

test('a config file that cannot be used: status, list and gc run on the defaults and warn, as the hooks do', () => {
  const home = join(makeTempDir(), 'shim');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), '{"levels": {"L1": 70,}}');
  const status = runShim(home, ['status', fixturePath('spotter-short-v2.1.38.jsonl')]);
  assert.equal(status.status, 0, status.stderr);
  assert.match(status.stderr, /warning: .*config\.json: not valid JSON.*using the defaults/);
  assert.match(status.stdout, /Context/);
  const json = runShim(home, ['status', fixturePath('spotter-short-v2.1.38.jsonl'), '--json']);
  assert.equal(json.status, 0);
  JSON.parse(json.stdout);
  const list = runShim(home, ['list', '--all']);
  assert.equal(list.status, 0, list.stderr);
  const gc = runShim(home, ['gc', '--dry-run']);
  assert.equal(gc.status, 0, gc.stderr);
  assert.match(gc.stderr, /warning: .*config\.json/);
});

test('shim config --help names the sync keys', () => {
  const help = runShim(makeTempDir(), ['config', '--help']);
  for (const key of [
    'sync.enabled',
    'sync.label',
    'sync.state',
    'sync.fromRequests',
    'sync.staleAfterHours',
    'sync.claudeMem',
  ])
    assert.ok(help.stdout.includes(key), key);
});
