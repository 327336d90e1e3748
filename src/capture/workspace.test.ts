import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { getHeadCommit, getWorkspaceFingerprint, listChangedFilesSince } from './workspace.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function repo(): { dir: string; git: (...args: string[]) => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'shim-ws-')));
  dirs.push(dir);
  const git = (...args: string[]): void => {
    const result = spawnSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
    assert.equal(result.status, 0, result.stderr);
  };
  git('init', '-q', '-b', 'main');
  return { dir, git };
}

describe('workspace fingerprint', () => {
  test('changes with every kind of change, and only then', () => {
    const { dir, git } = repo();
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    const beforeCommit = getWorkspaceFingerprint(dir);
    assert.ok(beforeCommit);
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    const edited = getWorkspaceFingerprint(dir);
    assert.notEqual(edited, beforeCommit, 'an untracked file changed size or time');
    git('add', '.');
    git('commit', '-q', '-m', 'c1');
    const committed = getWorkspaceFingerprint(dir);
    assert.equal(getWorkspaceFingerprint(dir), committed, 'nothing changed, same fingerprint');
    writeFileSync(join(dir, 'a.txt'), 'twO\n'); // same size
    const tracked = getWorkspaceFingerprint(dir);
    assert.notEqual(tracked, committed, 'a tracked edit of the same size');
    git('add', '.');
    assert.notEqual(getWorkspaceFingerprint(dir), tracked, 'staging changes the index');
    git('commit', '-q', '-m', 'c2');
    assert.notEqual(getWorkspaceFingerprint(dir), committed, 'a new commit');
    writeFileSync(join(dir, 'new.txt'), 'x');
    assert.notEqual(getWorkspaceFingerprint(dir), committed);
  });

  test('is null (unknown) outside a repository', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'shim-ws-')));
    dirs.push(dir);
    assert.equal(getWorkspaceFingerprint(dir), null);
    assert.equal(getHeadCommit(dir), null);
    assert.equal(listChangedFilesSince(dir, null), null);
  });

  test('lists files changed since the loop began: committed, modified and untracked', () => {
    const { dir, git } = repo();
    writeFileSync(join(dir, 'kept.txt'), 'k');
    writeFileSync(join(dir, 'edited.txt'), 'e');
    git('add', '.');
    git('commit', '-q', '-m', 'start');
    const start = getHeadCommit(dir);
    assert.ok(start);
    writeFileSync(join(dir, 'committed.txt'), 'c');
    git('add', 'committed.txt');
    git('commit', '-q', '-m', 'work');
    writeFileSync(join(dir, 'edited.txt'), 'E');
    writeFileSync(join(dir, 'untracked.txt'), 'u');
    assert.deepEqual(listChangedFilesSince(dir, start), [
      'committed.txt',
      'edited.txt',
      'untracked.txt',
    ]);
  });
});
