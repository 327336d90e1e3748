/**
 * A SHIM_HOME on a full disk or a read-only mount: the CLI says which (not "move the store
 * aside"), the hooks exit 0 and tell the user once, and PreCompact's lost checkpoint is logged
 * (on stderr when the log cannot be written either). Real mounts: a small tmpfs, remounted
 * read-only; skipped where this process may not mount.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { fillDisk, mountedHome } from './helpers/mounts.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';
import { storageFailureOf } from '../src/store/home/storage-failure.ts';

const TASKS = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';

function hook(home: string, event: string, payload: Record<string, unknown>) {
  return spawnSync(process.execPath, [BIN, 'hook', event], {
    input: JSON.stringify({ hook_event_name: event, ...payload }),
    encoding: 'utf8',
    env: { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') },
  });
}

describe('storage failures by kind', () => {
  test('codes and messages from node:fs and SQLite', () => {
    assert.equal(storageFailureOf(Object.assign(new Error('x'), { code: 'ENOSPC' })), 'disk-full');
    assert.equal(storageFailureOf(new Error('database or disk is full')), 'disk-full');
    assert.equal(
      storageFailureOf(new Error('wrapped', { cause: { code: 'SQLITE_FULL' } })),
      'disk-full',
    );
    assert.equal(storageFailureOf(new Error('attempt to write a readonly database')), 'read-only');
    assert.equal(storageFailureOf(Object.assign(new Error('x'), { code: 'EROFS' })), 'read-only');
    assert.equal(
      storageFailureOf(
        Object.assign(new Error('x'), { code: 'EACCES', path: '/elsewhere/t.jsonl' }),
        '/home/u/.shim',
      ),
      null,
      'a file elsewhere is not the store',
    );
    assert.equal(storageFailureOf(new Error('database disk image is malformed')), null);
  });
});

describe('a full disk', () => {
  // Room enough, once freed, for the checkpoint and the code caches of the calls that run then.
  const home = mountedHome('8m');
  test(
    'the CLI says the disk is full; hooks exit 0 and say it once',
    { skip: home === null && 'cannot mount a tmpfs here' },
    () => {
      const h = home!;
      // Fill what is left.
      fillDisk(h);
      const cp = runShim(h, ['checkpoint', '--transcript', fixturePath(TASKS)]);
      assert.equal(cp.status, 1);
      assert.match(cp.stderr, /disk holding .* is full/);
      assert.doesNotMatch(cp.stderr, /move it aside|bug in shim|corrupt/);
      const payload = { session_id: 'full-1', transcript_path: fixturePath(TASKS), cwd: h };
      const pre = hook(h, 'PreCompact', { ...payload, trigger: 'auto' });
      assert.equal(pre.status, 0);
      assert.match(pre.stderr, /PreCompact: checkpoint lost: the disk holding .* is full/);
      const first = hook(h, 'UserPromptSubmit', { ...payload, prompt: 'go on' });
      assert.equal(first.status, 0);
      assert.match(first.stdout, /disk holding .* is full/);
      // The lost attempt gave its claim back: once there is room, the same compaction is saved.
      rmSync(join(h, 'filler'));
      assert.equal(hook(h, 'PreCompact', { ...payload, trigger: 'auto' }).status, 0);
      const list = runShim(h, ['list', '--all', '--json']);
      assert.equal(list.status, 0, list.stderr);
      assert.match(list.stdout, /"triggeredBy": "pre_compact"/);
    },
  );
});

describe('a read-only SHIM_HOME', () => {
  const home = mountedHome('8m');
  test(
    'the CLI says read-only; the hooks exit 0 and tell the user at the session start',
    { skip: home === null && 'cannot mount a tmpfs here' },
    () => {
      const h = home!;
      assert.equal(runShim(h, ['checkpoint', '--transcript', fixturePath(TASKS)]).status, 0);
      execFileSync('mount', ['-o', 'remount,ro', h]);
      const cp = runShim(h, ['checkpoint', '--transcript', fixturePath(TASKS)]);
      assert.equal(cp.status, 1);
      assert.match(cp.stderr, /is read-only: shim cannot save checkpoints/);
      assert.doesNotMatch(cp.stderr, /move it aside|bug in shim/);
      const payload = { session_id: 'ro-1', transcript_path: fixturePath(TASKS), cwd: h };
      const start = hook(h, 'SessionStart', { ...payload, source: 'startup' });
      assert.equal(start.status, 0);
      assert.match(start.stdout, /is read-only/);
      const pre = hook(h, 'PreCompact', { ...payload, trigger: 'auto' });
      assert.equal(pre.status, 0);
      assert.match(pre.stderr, /PreCompact.*is read-only/);
      const tool = hook(h, 'PostToolUse', { ...payload, tool_name: 'Bash' });
      assert.equal(tool.status, 0);
      assert.doesNotMatch(tool.stdout, /read-only/, 'not on every tool call');
    },
  );
});

describe('shim replay', () => {
  test('refuses a named pipe instead of blocking on it', () => {
    const dir = makeTempDir();
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const r = runShim(dir, ['replay', fifo]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /is a named pipe, not a transcript/);
    writeFileSync(join(dir, 'x'), '');
  });
});
