import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AppError } from '../core/errors.ts';
import { capUtf8, SNAPSHOT_REF_PREFIX, TRUNCATION_MARKER } from './git-run.ts';
import { deleteSnapshot, listSnapshots, restoreSnapshot } from './git-snapshots.ts';
import { captureGitState, parseBranchHeader, parsePorcelainZ } from './git.ts';
import { commitWip } from './wip-commit.ts';

// Every git in this file (ours and the module's) sees no system or user configuration and never
// finds a repository above the temp directory.
const base = realpathSync(mkdtempSync(join(tmpdir(), 'shim-git-test-')));
after(() => rmSync(base, { recursive: true, force: true }));
writeFileSync(join(base, 'empty-gitconfig'), '');
process.env.GIT_CONFIG_NOSYSTEM = '1';
process.env.GIT_CONFIG_GLOBAL = join(base, 'empty-gitconfig');
process.env.GIT_CEILING_DIRECTORIES = base;
for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete process.env[name];

let counter = 0;
function freshDir(name = 'dir'): string {
  const dir = join(base, `${name}-${++counter}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Test-side git: never rewrites the index on its own (status would refresh it otherwise). */
function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

function newRepo(options: { files?: Record<string, string>; user?: boolean } = {}): string {
  const dir = freshDir('repo');
  git(dir, 'init', '-q', '-b', 'main');
  if (options.user !== false) {
    git(dir, 'config', 'user.name', 'Test');
    git(dir, 'config', 'user.email', 'test@example.com');
  } else {
    git(dir, 'config', 'user.useConfigOnly', 'true');
  }
  if (options.files) {
    write(dir, options.files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
  }
  return dir;
}

const BASE_FILES = {
  'README.md': 'hello\n',
  'src/app.ts': 'export const a = 1;\n',
  'keep.txt': 'keep\n',
  'gone.txt': 'to be deleted\n',
  '.gitignore': 'ignored.log\nbuild/\n',
};

/** A repo with one commit and every kind of uncommitted change. */
function busyRepo(): string {
  const dir = newRepo({ files: BASE_FILES });
  write(dir, { 'src/app.ts': 'export const a = 2;\n', 'staged.txt': 'staged\n' });
  git(dir, 'add', 'staged.txt');
  git(dir, 'mv', 'keep.txt', 'kept.txt');
  unlinkSync(join(dir, 'gone.txt'));
  write(dir, {
    'new file.txt': 'spaces\n',
    'dir/untracked.md': 'untracked\n',
    'ignored.log': 'secret\n',
    'build/out.js': 'built\n',
  });
  return dir;
}

function indexPath(dir: string): string {
  return join(dir, git(dir, 'rev-parse', '--git-path', 'index').trim());
}

function sha(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Everything a snapshot must leave alone. */
function userState(dir: string): Record<string, string> {
  const index = indexPath(dir);
  const tryGit = (...args: string[]) => {
    try {
      return git(dir, ...args);
    } catch {
      return '<error>';
    }
  };
  return {
    status: tryGit('status', '--porcelain=v1', '-z', '--untracked-files=all'),
    cached: tryGit('diff', '--cached'),
    unstaged: tryGit('diff'),
    index: existsSync(index) ? sha(readFileSync(index)) : '<none>',
    head: tryGit('rev-parse', '-q', '--verify', 'HEAD'),
    symbolic: tryGit('symbolic-ref', '-q', 'HEAD'),
    branches: tryGit('for-each-ref', 'refs/heads/'),
    reflog: tryGit('reflog', '-n', '5'),
    worktree: sha(JSON.stringify(listFiles(dir))),
  };
}

/** path → content of every file under `dir`, outside .git. */
function listFiles(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name === '.git') continue;
    if (entry.isDirectory()) Object.assign(out, listFiles(dir, rel));
    else out[rel] = readFileSync(join(dir, rel), 'utf8');
  }
  return out;
}

/** path → content of every file in a commit. */
function commitFiles(dir: string, commit: string): Record<string, string> {
  const out: Record<string, string> = {};
  const names = git(dir, 'ls-tree', '-r', '-z', '--name-only', commit).split('\0').filter(Boolean);
  for (const name of names) out[name] = git(dir, 'cat-file', 'blob', `${commit}:${name}`);
  return out;
}

/**
 * Runs `work` with the temporary directory pointing at a fresh one of its own and returns what
 * was left there: the shared one also holds other test runs' directories, which come and go.
 */
async function leftInTemp<T>(work: () => Promise<T>): Promise<{ value: T; left: string[] }> {
  const dir = freshDir('tmp');
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return { value: await work(), left: readdirSync(dir) };
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

function assertAppError(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof AppError, `expected AppError, got ${String(error)}`);
    assert.match(error.message, message);
    assert.ok(error.hint && error.hint.length > 0, 'an AppError carries a hint');
    return true;
  });
}

describe('parsePorcelainZ', () => {
  it('sorts entries into modified, staged and untracked, renames by their new path', async () => {
    const out = [
      ' M a.txt',
      'M  b.txt',
      'MM c.txt',
      'A  d e.txt',
      'R  new name.txt',
      'old name.txt',
      ' D gone.txt',
      'UU conflict.txt',
      '?? line\nbreak.txt',
      '!! ignored.txt',
      '',
    ].join('\0');
    assert.deepEqual(parsePorcelainZ(`## main...origin/main [different]\0${out}`), {
      modifiedFiles: ['a.txt', 'c.txt', 'gone.txt', 'conflict.txt'],
      stagedFiles: ['b.txt', 'c.txt', 'd e.txt', 'new name.txt'],
      untrackedFiles: ['line\nbreak.txt'],
      branch: 'main',
      clean: false,
    });
  });

  it('reads the branch header and reports a clean tree', async () => {
    assert.deepEqual(parsePorcelainZ('## feature/x\0'), {
      modifiedFiles: [],
      stagedFiles: [],
      untrackedFiles: [],
      branch: 'feature/x',
      clean: true,
    });
    assert.equal(parseBranchHeader('## No commits yet on main'), 'main');
    assert.equal(parseBranchHeader('## Initial commit on dev...origin/dev'), 'dev');
    assert.equal(parseBranchHeader('## HEAD (no branch)'), null);
    assert.equal(parseBranchHeader('## main...origin/main [ahead 1, behind 2]'), 'main');
    assert.equal(parseBranchHeader('## café [gone]'), 'café');
  });

  it('drops a cut-off last entry of truncated output', async () => {
    assert.deepEqual(parsePorcelainZ(' M a.txt\0?? b.t', false).untrackedFiles, []);
    assert.deepEqual(parsePorcelainZ('R  new.txt\0', false).stagedFiles, []);
    assert.equal(parsePorcelainZ('## main\0', false).clean, false);
  });
});

describe('capUtf8', () => {
  it('leaves short text alone and cuts long text on a character boundary', async () => {
    assert.equal(capUtf8('short', 100), 'short');
    for (const unit of ['a', 'é', '€', '😀']) {
      const text = unit.repeat(5000);
      const capped = capUtf8(text, 1000);
      assert.ok(Buffer.byteLength(capped) <= 1000, unit);
      assert.ok(capped.endsWith(TRUNCATION_MARKER));
      assert.ok(!capped.includes('\uFFFD'), 'no broken character');
      assert.ok(text.startsWith(capped.slice(0, -TRUNCATION_MARKER.length)));
    }
  });
});

describe('captureGitState', () => {
  it('returns nulls outside a repository and never throws', async () => {
    const dir = freshDir('plain');
    const capture = await captureGitState(dir, { snapshot: { checkpointId: 'cp-outside' } });
    assert.deepEqual(capture, {
      repoRoot: null,
      branch: null,
      head: null,
      modifiedFiles: [],
      stagedFiles: [],
      untrackedFiles: [],
      uncommittedDiff: '',
      snapshot: null,
    });
    assert.equal((await captureGitState(join(dir, 'does-not-exist'), {})).repoRoot, null);
    assert.deepEqual(listSnapshots(dir), []);
    assert.equal(deleteSnapshot(dir, 'cp-outside'), false);
  });

  it('returns nulls when git is not installed', async () => {
    const repo = newRepo({ files: { 'a.txt': 'a\n' } });
    const path = process.env.PATH;
    process.env.PATH = freshDir('empty-path');
    try {
      const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-nogit' } });
      assert.equal(capture.repoRoot, null);
      assert.equal(capture.snapshot, null);
      assertAppError(() => restoreSnapshot(repo, 'HEAD', {}), /git is not installed/);
    } finally {
      process.env.PATH = path;
    }
  });

  it('lists modified, staged and untracked files relative to the root, ignoring ignored ones', async () => {
    const repo = busyRepo();
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    const capture = await captureGitState(join(repo, 'src', 'deep'), {});
    assert.equal(capture.repoRoot, realpathSync(repo));
    assert.equal(capture.branch, 'main');
    assert.equal(capture.head, git(repo, 'rev-parse', 'HEAD').trim());
    assert.deepEqual(capture.modifiedFiles.sort(), ['gone.txt', 'src/app.ts']);
    assert.deepEqual(capture.stagedFiles.sort(), ['kept.txt', 'staged.txt']);
    assert.deepEqual(capture.untrackedFiles.sort(), ['dir/untracked.md', 'new file.txt']);
    assert.equal(capture.snapshot, null);
    assert.match(capture.uncommittedDiff, /^-export const a = 1;$/m);
    assert.match(capture.uncommittedDiff, /^\+export const a = 2;$/m);
    assert.match(capture.uncommittedDiff, /^\+staged$/m);
    assert.doesNotMatch(capture.uncommittedDiff, /secret/);
  });

  it('handles paths with spaces, newlines and non-ASCII characters', async () => {
    const repo = newRepo({ files: { 'with space.txt': 'a\n' } });
    write(repo, { 'with space.txt': 'b\n', 'line\nbreak.txt': 'x\n', 'café ☕.txt': 'y\n' });
    const capture = await captureGitState(repo, {});
    assert.deepEqual(capture.modifiedFiles, ['with space.txt']);
    assert.deepEqual(capture.untrackedFiles.sort(), ['café ☕.txt', 'line\nbreak.txt'].sort());
    assert.match(capture.uncommittedDiff, /diff --git a\/with space\.txt b\/with space\.txt/);
  });

  it('caps a large diff at 10 KB on a character boundary', async () => {
    const repo = newRepo({ files: { 'big.txt': 'start\n', 'wide.txt': 'start\n' } });
    write(repo, {
      'big.txt': 'x'.repeat(100).concat('\n').repeat(2000),
      'wide.txt': '€😀 '.repeat(30).concat('\n').repeat(2000),
    });
    const capture = await captureGitState(repo, {});
    const bytes = Buffer.byteLength(capture.uncommittedDiff);
    assert.ok(bytes <= 10 * 1024, `${bytes} bytes`);
    assert.ok(bytes > 9 * 1024, `${bytes} bytes is cut too short`);
    assert.ok(capture.uncommittedDiff.endsWith(TRUNCATION_MARKER));
    assert.ok(!capture.uncommittedDiff.includes('\uFFFD'));
    // Cut inside the multibyte file too.
    write(repo, { 'big.txt': 'start\n' });
    const wide = (await captureGitState(repo, {})).uncommittedDiff;
    assert.ok(Buffer.byteLength(wide) <= 10 * 1024);
    assert.ok(wide.includes('€😀'));
    assert.ok(!wide.includes('\uFFFD'));
  });

  it('works in a repository without commits', async () => {
    const repo = newRepo();
    assert.equal((await captureGitState(repo, {})).branch, 'main');
    write(repo, { 'a.txt': 'staged\n', 'b.txt': 'untracked\n', 'ignored.log': 'no\n' });
    write(repo, { '.gitignore': '*.log\n' });
    git(repo, 'add', 'a.txt');
    write(repo, { 'a.txt': 'staged\nthen edited\n' });
    const before = userState(repo);
    const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-unborn' } });
    assert.deepEqual(userState(repo), before);
    assert.equal(capture.head, null);
    assert.equal(capture.branch, 'main');
    assert.deepEqual(capture.stagedFiles, ['a.txt']);
    assert.deepEqual(capture.modifiedFiles, ['a.txt']);
    assert.deepEqual(capture.untrackedFiles.sort(), ['.gitignore', 'b.txt']);
    assert.match(capture.uncommittedDiff, /^\+staged$/m);
    assert.match(capture.uncommittedDiff, /^\+then edited$/m);
    assert.ok(capture.snapshot);
    assert.equal(capture.snapshot.head, null);
    assert.equal(
      git(repo, 'rev-list', '--parents', '-n', '1', capture.snapshot.commit).trim(),
      capture.snapshot.commit,
    );
    assert.deepEqual(commitFiles(repo, capture.snapshot.ref), {
      '.gitignore': '*.log\n',
      'a.txt': 'staged\nthen edited\n',
      'b.txt': 'untracked\n',
    });
    assert.equal(git(repo, 'symbolic-ref', 'HEAD').trim(), 'refs/heads/main', 'still unborn');
    assert.throws(() => git(repo, 'rev-parse', '--verify', '-q', 'HEAD'));
  });

  it('reports a detached HEAD as branch null', async () => {
    const repo = newRepo({ files: { 'a.txt': 'one\n' } });
    write(repo, { 'a.txt': 'two\n' });
    git(repo, 'commit', '-q', '-am', 'second');
    git(repo, 'checkout', '-q', '--detach', 'HEAD~1');
    write(repo, { 'a.txt': 'three\n' });
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const before = userState(repo);
    const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-detached' } });
    assert.deepEqual(userState(repo), before);
    assert.equal(capture.branch, null);
    assert.equal(capture.head, head);
    assert.deepEqual(capture.snapshot && { ...capture.snapshot, commit: '' }, {
      ref: `${SNAPSHOT_REF_PREFIX}cp-detached`,
      commit: '',
      head,
      branch: null,
    });
    assert.equal(git(repo, 'rev-parse', `${capture.snapshot?.commit}^`).trim(), head);
  });
});

describe('snapshots', () => {
  it('leave the branch, HEAD, index and working tree exactly as they were', async () => {
    const repo = busyRepo();
    const before = userState(repo);
    const indexBytes = readFileSync(indexPath(repo));
    const { value: capture, left } = await leftInTemp(() =>
      captureGitState(repo, { snapshot: { checkpointId: 'cp-1' } }),
    );
    assert.deepEqual(readFileSync(indexPath(repo)), indexBytes);
    assert.deepEqual(userState(repo), before);
    assert.deepEqual(left, [], 'no temporary index left behind');
    assert.ok(capture.snapshot, capture.snapshotError);
    assert.equal(capture.snapshot.ref, 'refs/shim/snapshots/cp-1');
    assert.equal(capture.snapshot.head, capture.head);
    assert.equal(capture.snapshot.branch, 'main');
    assert.notEqual(capture.snapshot.commit, capture.head);
    assert.equal(git(repo, 'rev-parse', capture.snapshot.ref).trim(), capture.snapshot.commit);
    assert.equal(git(repo, 'rev-parse', `${capture.snapshot.commit}^`).trim(), capture.head);
    assert.equal(
      git(repo, 'log', '-1', '--format=%s', capture.snapshot.commit).trim(),
      'shim snapshot cp-1',
    );
  });

  it('hold exactly the working tree: untracked files in, ignored and deleted files out', async () => {
    const repo = busyRepo();
    const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-content' } });
    assert.ok(capture.snapshot);
    const expected = listFiles(repo);
    delete expected['ignored.log'];
    delete expected['build/out.js'];
    assert.deepEqual(commitFiles(repo, capture.snapshot.commit), expected);
    assert.ok(!('gone.txt' in expected) && 'new file.txt' in expected && 'kept.txt' in expected);
  });

  it('need no configured identity and are never signed', async () => {
    const repo = newRepo({ user: false });
    git(repo, 'config', 'commit.gpgSign', 'true');
    git(repo, 'config', 'gpg.program', 'false');
    write(repo, { 'a.txt': 'a\n' });
    const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-anon' } });
    assert.ok(capture.snapshot, capture.snapshotError);
    assert.equal(
      git(repo, 'log', '-1', '--format=%an <%ae>', capture.snapshot.commit).trim(),
      'shim <shim@localhost>',
    );
  });

  it(
    'leave out files git cannot read instead of failing',
    { skip: process.getuid?.() === 0 ? 'root can read every file' : false },
    async () => {
      const repo = newRepo({ files: { 'a.txt': 'a\n' } });
      write(repo, { 'a.txt': 'b\n', 'secret.txt': 'unreadable\n' });
      chmodSync(join(repo, 'secret.txt'), 0o000);
      const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-unreadable' } });
      assert.ok(capture.snapshot);
      assert.match(capture.snapshotError ?? '', /secret\.txt/);
      assert.deepEqual(commitFiles(repo, capture.snapshot.commit), { 'a.txt': 'b\n' });
    },
  );

  it('fall back to an index read from HEAD when the index cannot be copied, leaving it alone', async () => {
    const repo = newRepo({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    write(repo, { 'a.txt': 'changed\n', 'c.txt': 'new\n' });
    writeFileSync(indexPath(repo), 'not an index');
    const { value: capture, left } = await leftInTemp(() =>
      captureGitState(repo, { snapshot: { checkpointId: 'cp-bad-index' } }),
    );
    assert.ok(capture.snapshot, capture.snapshotError);
    assert.deepEqual(commitFiles(repo, capture.snapshot.commit), {
      'a.txt': 'changed\n',
      'b.txt': 'b\n',
      'c.txt': 'new\n',
    });
    assert.equal(readFileSync(indexPath(repo), 'utf8'), 'not an index');
    assert.deepEqual(left, [], 'no temporary index left behind');
  });

  it('pin HEAD itself when nothing is uncommitted', async () => {
    const repo = newRepo({ files: { 'a.txt': 'a\n', '.gitignore': '*.log\n' } });
    write(repo, { 'x.log': 'ignored\n' });
    const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-clean' } });
    assert.ok(capture.snapshot);
    assert.equal(capture.snapshot.commit, capture.head);
    assert.equal(git(repo, 'rev-parse', 'refs/shim/snapshots/cp-clean').trim(), capture.head);
    assert.equal(git(repo, 'rev-list', '--all', '--count').trim(), '1', 'no new commit');
  });

  it('work in a linked worktree without touching it or the main one', async () => {
    const repo = newRepo({ files: { 'a.txt': 'a\n' } });
    write(repo, { 'main-only.txt': 'main\n' });
    const linked = join(freshDir('wt'), 'linked');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature', linked);
    write(linked, { 'a.txt': 'changed in linked\n', 'new.txt': 'new\n' });
    git(linked, 'add', 'new.txt');
    const mainBefore = userState(repo);
    const linkedBefore = userState(linked);
    const capture = await captureGitState(linked, { snapshot: { checkpointId: 'cp-linked' } });
    assert.deepEqual(userState(repo), mainBefore);
    assert.deepEqual(userState(linked), linkedBefore);
    assert.equal(capture.repoRoot, realpathSync(linked));
    assert.equal(capture.branch, 'feature');
    assert.deepEqual(capture.modifiedFiles, ['a.txt']);
    assert.deepEqual(capture.stagedFiles, ['new.txt']);
    assert.ok(capture.snapshot);
    assert.deepEqual(commitFiles(repo, capture.snapshot.commit), {
      'a.txt': 'changed in linked\n',
      'new.txt': 'new\n',
    });
    // Refs are shared: the main worktree sees the snapshot.
    assert.deepEqual(
      listSnapshots(repo).map((s) => s.checkpointId),
      ['cp-linked'],
    );
  });

  it('work in a repository with a submodule, recording it at its commit', async () => {
    const sub = newRepo({ files: { 'lib.txt': 'lib\n' } });
    const repo = newRepo({ files: { 'a.txt': 'a\n' } });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'vendor/sub');
    git(repo, 'commit', '-q', '-m', 'add submodule');
    write(repo, { 'a.txt': 'b\n', 'vendor/sub/lib.txt': 'edited inside the submodule\n' });
    const before = userState(repo);
    const subBefore = userState(join(repo, 'vendor/sub'));
    const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-super' } });
    assert.deepEqual(userState(repo), before);
    assert.deepEqual(userState(join(repo, 'vendor/sub')), subBefore);
    assert.ok(capture.snapshot, capture.snapshotError);
    assert.deepEqual(capture.modifiedFiles.sort(), ['a.txt', 'vendor/sub']);
    const subCommit = git(repo, 'rev-parse', 'HEAD:vendor/sub').trim();
    assert.match(
      git(repo, 'ls-tree', capture.snapshot.commit, 'vendor/sub'),
      new RegExp(`^160000 commit ${subCommit}`),
    );
    // And from inside the submodule, which has its own state.
    const inner = await captureGitState(join(repo, 'vendor/sub'), {
      snapshot: { checkpointId: 'cp-sub' },
    });
    assert.equal(inner.repoRoot, realpathSync(join(repo, 'vendor/sub')));
    assert.deepEqual(inner.modifiedFiles, ['lib.txt']);
    assert.ok(inner.snapshot);
    assert.deepEqual(userState(join(repo, 'vendor/sub')), subBefore);
  });

  it('refuse checkpoint ids that are not valid ref names before running git', async () => {
    const repo = newRepo({ files: { 'a.txt': 'a\n' } });
    for (const id of ['', '../x', 'a b', 'x.lock', '-x', 'a..b', 'a/b']) {
      assertAppError(
        () => captureGitState(repo, { snapshot: { checkpointId: id } }),
        /snapshot name/,
      );
    }
    assert.deepEqual(listSnapshots(repo), []);
  });

  it('are listed and deleted by checkpoint id', async () => {
    const repo = newRepo({ files: { 'a.txt': 'a\n' } });
    write(repo, { 'a.txt': 'b\n' });
    const one = (await captureGitState(repo, { snapshot: { checkpointId: 'cp-a' } })).snapshot;
    const two = (await captureGitState(repo, { snapshot: { checkpointId: 'cp-b' } })).snapshot;
    assert.ok(one && two);
    assert.deepEqual(listSnapshots(repo), [
      { checkpointId: 'cp-a', ref: 'refs/shim/snapshots/cp-a', commit: one.commit },
      { checkpointId: 'cp-b', ref: 'refs/shim/snapshots/cp-b', commit: two.commit },
    ]);
    assert.equal(deleteSnapshot(repo, 'cp-a'), true);
    assert.equal(deleteSnapshot(repo, 'cp-a'), false);
    assert.deepEqual(
      listSnapshots(repo).map((s) => s.checkpointId),
      ['cp-b'],
    );
    assert.throws(() => git(repo, 'rev-parse', '--verify', '-q', 'refs/shim/snapshots/cp-a'));
  });
});

describe('restoreSnapshot', () => {
  async function snapshotted(): Promise<{
    repo: string;
    commit: string;
    files: Record<string, string>;
  }> {
    const repo = busyRepo();
    const capture = await captureGitState(repo, {
      snapshot: { checkpointId: 'cp-restore-0123456789' },
    });
    assert.ok(capture.snapshot);
    const files = listFiles(repo);
    delete files['ignored.log'];
    delete files['build/out.js'];
    return { repo, commit: capture.snapshot.commit, files };
  }

  it('creates a new branch holding exactly the snapshot, without touching the checkout', async () => {
    const { repo, commit, files } = await snapshotted();
    const before = userState(repo);
    const result = restoreSnapshot(repo, 'cp-restore-0123456789', {});
    assert.deepEqual(result, { branch: 'shim/restore-cp-restore-0', worktree: null, commit });
    assert.equal(git(repo, 'rev-parse', 'refs/heads/shim/restore-cp-restore-0').trim(), commit);
    assert.deepEqual(commitFiles(repo, 'shim/restore-cp-restore-0'), files);
    const after = userState(repo);
    assert.notEqual(after.branches, before.branches);
    assert.deepEqual({ ...after, branches: '' }, { ...before, branches: '' });
    // A full ref and a named branch work too.
    const named = restoreSnapshot(repo, `${SNAPSHOT_REF_PREFIX}cp-restore-0123456789`, {
      branch: 'rescue',
    });
    assert.deepEqual(named, { branch: 'rescue', worktree: null, commit });
    assertAppError(
      () => restoreSnapshot(repo, 'cp-restore-0123456789', { branch: 'rescue' }),
      /branch rescue already exists/,
    );
    assertAppError(
      () => restoreSnapshot(repo, 'cp-restore-0123456789', { branch: 'main' }),
      /already exists/,
    );
    assert.equal(git(repo, 'rev-parse', 'main').trim(), before.head?.trim());
  });

  it('creates a new worktree holding exactly the snapshot, untracked files included', async () => {
    const { repo, commit, files } = await snapshotted();
    const before = userState(repo);
    const target = join(freshDir('restore'), 'restored');
    const result = restoreSnapshot(repo, 'cp-restore-0123456789', { worktree: target });
    assert.deepEqual(result, { branch: 'shim/restore-cp-restore-0', worktree: target, commit });
    assert.deepEqual(listFiles(target), files);
    assert.equal(git(target, 'status', '--porcelain').trim(), '');
    assert.equal(
      git(target, 'symbolic-ref', '--short', 'HEAD').trim(),
      'shim/restore-cp-restore-0',
    );
    const after = userState(repo);
    assert.deepEqual({ ...after, branches: '' }, { ...before, branches: '' });
    // An empty existing directory is fine; a non-empty one is refused.
    const empty = freshDir('empty-target');
    assert.equal(restoreSnapshot(repo, commit, { worktree: empty, branch: 'r2' }).worktree, empty);
    assertAppError(
      () => restoreSnapshot(repo, commit, { worktree: empty, branch: 'r3' }),
      /already exists and is not empty/,
    );
    assert.throws(
      () => git(repo, 'rev-parse', '--verify', '-q', 'refs/heads/r3'),
      'no branch left over',
    );
  });

  it('refuses unknown refs and places that are not repositories', async () => {
    const { repo } = await snapshotted();
    assertAppError(
      () => restoreSnapshot(repo, 'cp-nope', {}),
      /no snapshot or commit named "cp-nope"/,
    );
    assertAppError(() => restoreSnapshot(repo, '--all', {}), /no snapshot or commit/);
    assertAppError(
      () => restoreSnapshot(freshDir('plain'), 'cp-x', {}),
      /not inside a git working tree/,
    );
    assertAppError(
      () => restoreSnapshot(repo, 'HEAD', { branch: 'bad..name' }),
      /not a valid branch name/,
    );
  });

  it('restores a snapshot taken before the first commit', async () => {
    const repo = newRepo();
    write(repo, { 'only.txt': 'first\n' });
    const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-first' } });
    assert.ok(capture.snapshot);
    const target = join(freshDir('restore'), 'first');
    restoreSnapshot(repo, 'cp-first', { worktree: target });
    assert.deepEqual(listFiles(target), { 'only.txt': 'first\n' });
  });
});

describe('commitWip', () => {
  it('commits tracked and untracked changes to the current branch, not ignored files', async () => {
    const repo = busyRepo();
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const commit = commitWip(repo, 'WIP: checkpoint');
    assert.ok(commit);
    assert.equal(git(repo, 'rev-parse', 'main').trim(), commit);
    assert.equal(git(repo, 'rev-parse', `${commit}^`).trim(), head);
    assert.equal(
      git(repo, 'log', '-1', '--format=%s%n%an', commit).trim(),
      'WIP: checkpoint\nTest',
    );
    const expected = listFiles(repo);
    delete expected['ignored.log'];
    delete expected['build/out.js'];
    assert.deepEqual(commitFiles(repo, commit), expected);
    assert.equal(git(repo, 'status', '--porcelain').trim(), '');
    assert.equal(commitWip(repo, 'nothing'), null);
    assert.equal(git(repo, 'rev-parse', 'main').trim(), commit);
  });

  it('works before the first commit and without a configured identity', async () => {
    const repo = newRepo({ user: false });
    assert.equal(commitWip(repo, 'empty'), null);
    write(repo, { 'a.txt': 'a\n' });
    const commit = commitWip(repo, 'first WIP');
    assert.ok(commit);
    assert.equal(git(repo, 'log', '-1', '--format=%an', commit).trim(), 'shim');
    assertAppError(() => commitWip(freshDir('plain'), 'x'), /not inside a git working tree/);
  });

  it('refuses to commit in the middle of a merge', async () => {
    const repo = newRepo({ files: { 'a.txt': 'base\n' } });
    git(repo, 'checkout', '-q', '-b', 'other');
    write(repo, { 'a.txt': 'other\n' });
    git(repo, 'commit', '-q', '-am', 'other');
    git(repo, 'checkout', '-q', 'main');
    write(repo, { 'a.txt': 'main\n' });
    git(repo, 'commit', '-q', '-am', 'main');
    assert.throws(() => git(repo, 'merge', '-q', 'other'));
    const before = userState(repo);
    assertAppError(() => commitWip(repo, 'WIP'), /merge is in progress/);
    assert.deepEqual(userState(repo), before);
    // Capturing is fine: the conflict shows up as modified.
    const capture = await captureGitState(repo, { snapshot: { checkpointId: 'cp-merge' } });
    assert.deepEqual(capture.modifiedFiles, ['a.txt']);
    assert.ok(capture.snapshot);
    assert.deepEqual(userState(repo), before);
  });
});
