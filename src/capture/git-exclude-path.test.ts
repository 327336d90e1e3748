import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { gitExcludePath } from './git-exclude-path.ts';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'shim-exclude-')));
after(() => rmSync(dir, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined },
  }).trim();
}

/** What git itself answers, the truth the file reading must match. */
const gitsAnswer = (root: string) =>
  resolve(root, git(root, 'rev-parse', '--git-path', 'info/exclude'));

test("a clone, a linked work tree and a submodule's: the path git gives, without asking git", () => {
  const clone = join(dir, 'clone');
  mkdirSync(clone);
  git(clone, 'init', '-q');
  git(
    clone,
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@t',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'x',
  );
  assert.equal(gitExcludePath(clone), gitsAnswer(clone));

  const linked = join(dir, 'linked');
  git(clone, 'worktree', 'add', '-q', linked);
  assert.equal(gitExcludePath(linked), gitsAnswer(linked));
  assert.equal(gitExcludePath(linked), join(clone, '.git', 'info', 'exclude'));

  // A submodule's work tree: `.git` names a git dir of its own (no commondir).
  const sub = join(dir, 'sub');
  mkdirSync(join(dir, 'modules', 'sub'), { recursive: true });
  git(join(dir, 'modules', 'sub'), 'init', '-q', '--bare');
  mkdirSync(sub);
  writeFileSync(join(sub, '.git'), 'gitdir: ../modules/sub\n');
  git(join(dir, 'modules', 'sub'), 'config', 'core.bare', 'false');
  git(join(dir, 'modules', 'sub'), 'config', 'core.worktree', sub);
  assert.equal(gitExcludePath(sub), gitsAnswer(sub));
});

test('not the root of a work tree: none', () => {
  const plain = join(dir, 'plain');
  mkdirSync(plain);
  assert.equal(gitExcludePath(plain), null);
});
