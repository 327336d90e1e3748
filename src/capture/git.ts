/**
 * Git state for checkpoints (the checkpoint's `fileState`, docs/specification.md): what is modified, staged and
 * untracked, the uncommitted diff, and a snapshot commit of the whole working tree kept under a
 * hidden ref so "the state at checkpoint time" can always be brought back.
 *
 * Everything goes through the `git` CLI (argument arrays, never a shell, `git -C <dir>`), with
 * `GIT_TERMINAL_PROMPT=0`, `LC_ALL=C`, `GIT_OPTIONAL_LOCKS=0` (so even `git status` never rewrites
 * the user's index) and without the repository-selecting variables (`GIT_DIR`, `GIT_INDEX_FILE`,
 * …) a parent process may have set. Nothing here talks to the network.
 *
 * Snapshots (`captureGitState(cwd, { snapshot: { checkpointId } })`):
 * - The user's branch, HEAD, index and working tree are never touched. The working tree is
 *   staged into a temporary copy of the index (`GIT_INDEX_FILE`, so unchanged files are not
 *   re-hashed), `git add -A` (tracked and untracked files, .gitignore respected), `git write-tree`,
 *   `git commit-tree -p HEAD` (no parent in a repository without commits; a fixed `shim`
 *   identity so no `user.name`/`user.email` is needed; never signed), then
 *   `git update-ref refs/shim/snapshots/<checkpointId> <commit>`. The temporary index lives in
 *   a private temp directory that is removed on every path out.
 * - Nothing uncommitted (`git status` lists nothing staged, modified or untracked, so the tree
 *   would equal HEAD's): no commit is made, and the ref points at the HEAD commit itself, so
 *   `snapshot.commit === snapshot.head`. The ref is still written because it keeps that commit
 *   reachable even if the branch is later reset or rebased: the caller can always restore from
 *   `snapshot.ref`. (When status lists only changes that `git add -A` does not record, such as
 *   edits inside a submodule, the snapshot is a new commit whose tree equals HEAD's.)
 * - Cost: 3 git processes without a snapshot (rev-parse, status, diff), +1 for a snapshot of a
 *   clean tree (update-ref), +4 otherwise (add, write-tree, commit-tree, update-ref). Untracked
 *   files are hashed on every snapshot (they have no stat data in the index to reuse).
 * - Captured: the content of every non-ignored file in the working tree. Not captured: ignored
 *   files, the staged/unstaged split (recorded separately in `stagedFiles`/`modifiedFiles`), and
 *   uncommitted changes inside submodules (a submodule is recorded at its checked-out commit).
 * - Refs under `refs/shim/` are not fetched by clones nor pushed by a plain `git push` (a
 *   `git push --mirror` would push them). Delete them with {@link deleteSnapshot} when their
 *   checkpoint is deleted; git's own gc then prunes the commits.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GitFacts } from '../core/build-checkpoint.ts';
import type { GitSnapshot } from '../core/checkpoint.ts';
import { CHECKPOINT_LIMITS } from '../core/checkpoint.ts';
import { AppError } from '../core/errors.ts';

/** The facts the checkpoint builder needs (see GitFacts), plus why a snapshot failed. */
export type GitCapture = GitFacts & {
  /**
   * Why a requested snapshot is null (git failed), or, beside a snapshot, which files git could
   * not read and left out of it. Absent when all went well or no snapshot was asked for.
   */
  snapshotError?: string;
};

export type CaptureOptions = { snapshot?: { checkpointId: string } };

export type SnapshotInfo = { checkpointId: string; ref: string; commit: string };

export type RestoreTarget = { branch?: string; worktree?: string };

export type RestoreResult = { branch: string | null; worktree: string | null; commit: string };

export const SNAPSHOT_REF_PREFIX = 'refs/shim/snapshots/';
export const TRUNCATION_MARKER = '\n… (truncated)';

const SNAPSHOT_IDENTITY = { name: 'shim', email: 'shim@localhost' };
/** Generous: the diff is cut to 10 KB afterwards; this only bounds what is read. */
const DIFF_READ_BYTES = 64 * 1024;
const STATUS_READ_BYTES = 32 * 1024 * 1024;
const SMALL_READ_BYTES = 1024 * 1024;
const TIMEOUT_MS = 60_000;

/** Variables that would make git ignore `-C <dir>` and look at some other repository or index. */
const REPO_SELECTING_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_SHALLOW_FILE',
  'GIT_QUARANTINE_PATH',
];

export type GitRun = {
  /** Exit status 0. */
  ok: boolean;
  status: number | null;
  stdout: Buffer;
  stderr: string;
  /** More output than `maxBuffer`: git was stopped and `stdout` is a prefix. */
  overflow: boolean;
  /** The git executable could not be started. */
  missing: boolean;
};

type GitCall = { env?: Record<string, string>; maxBuffer?: number; config?: string[] };

function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPO_SELECTING_VARS) delete env[name];
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    LANGUAGE: 'C',
    ...extra,
  };
}

export function runGit(cwd: string, args: string[], call: GitCall = {}): GitRun {
  const config = (call.config ?? []).flatMap((c) => ['-c', c]);
  const result = spawnSync('git', [...config, '-C', cwd, ...args], {
    env: gitEnv(call.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: call.maxBuffer ?? SMALL_READ_BYTES,
    timeout: TIMEOUT_MS,
    windowsHide: true,
  });
  const code = (result.error as NodeJS.ErrnoException | undefined)?.code;
  const stdout = result.stdout ?? Buffer.alloc(0);
  return {
    ok: result.error === undefined && result.status === 0,
    status: result.status,
    stdout,
    stderr: (result.stderr ?? Buffer.alloc(0)).toString('utf8').trim(),
    overflow: code === 'ENOBUFS',
    missing: code === 'ENOENT',
  };
}

/** The first line of stdout, or null when git failed. */
function gitLine(cwd: string, args: string[], call?: GitCall): string | null {
  const run = runGit(cwd, args, call);
  if (!run.ok) return null;
  return run.stdout.toString('utf8').split('\n', 1)[0] ?? '';
}

function gitOrThrow(cwd: string, args: string[], call?: GitCall): string {
  const run = runGit(cwd, args, call);
  if (!run.ok) {
    const why = run.missing ? 'git is not installed' : run.stderr || `exit ${run.status}`;
    throw new Error(`git ${args[0] ?? ''} failed: ${why}`);
  }
  return run.stdout.toString('utf8').trim();
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes on a character boundary, marking the cut. */
export function capUtf8(text: string, maxBytes: number, forceMarker = false): string {
  if (!forceMarker && Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const room = Math.max(0, maxBytes - Buffer.byteLength(TRUNCATION_MARKER, 'utf8'));
  // Re-encoding a JS string always yields valid UTF-8, so backing up over continuation bytes
  // (10xxxxxx) lands on the first byte of a character.
  const bytes = Buffer.from(text, 'utf8');
  let end = Math.min(room, bytes.length);
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + TRUNCATION_MARKER;
}

type RepoInfo = { root: string; gitDir: string; indexPath: string; head: string | null };

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Top level, git dir, index path and HEAD in one process. `--verify -q HEAD^{commit}` comes last,
 * so in a repository without commits git prints the first three and exits 1; outside a
 * repository (or in a bare one) it prints nothing and exits 128.
 */
function repoInfo(cwd: string): RepoInfo | null {
  const run = runGit(cwd, [
    'rev-parse',
    '--show-toplevel',
    '--absolute-git-dir',
    '--git-path',
    'index',
    '--verify',
    '-q',
    'HEAD^{commit}',
  ]);
  if (run.missing || (run.status !== 0 && run.status !== 1)) return null;
  const [root, gitDir, index, head] = run.stdout.toString('utf8').split('\n');
  if (!root || !gitDir || !index) return null;
  return {
    root,
    gitDir,
    // --git-path is relative to the directory git ran in (-C cwd).
    indexPath: resolve(cwd, index),
    head: run.status === 0 && head !== undefined && OBJECT_ID.test(head) ? head : null,
  };
}

function resolveCommit(root: string, rev: string): string | null {
  if (rev.startsWith('-')) return null;
  return gitLine(root, ['rev-parse', '-q', '--verify', `${rev}^{commit}`]) || null;
}

type StatusLists = Pick<GitCapture, 'modifiedFiles' | 'stagedFiles' | 'untrackedFiles'>;
type Status = StatusLists & { branch: string | null; clean: boolean };

/**
 * The branch from a `## …` header of `git status -b`: `main`, `main...origin/main [ahead 1]`,
 * `No commits yet on main` (`Initial commit on main` before git 2.17), `HEAD (no branch)`.
 * Branch names cannot contain `..` or spaces, so the first `...` or space ends the name.
 */
export function parseBranchHeader(header: string): string | null {
  let text = header.startsWith('## ') ? header.slice(3) : header;
  if (text.startsWith('HEAD (no branch)')) return null;
  for (const prefix of ['No commits yet on ', 'Initial commit on ']) {
    if (text.startsWith(prefix)) text = text.slice(prefix.length);
  }
  const dots = text.indexOf('...');
  if (dots >= 0) text = text.slice(0, dots);
  const space = text.indexOf(' ');
  if (space >= 0) text = text.slice(0, space);
  return text || null;
}

/**
 * Parses `git status --porcelain=v1 -z [-b]`: an optional `## branch` header, then `XY path\0`,
 * and for renames and copies `XY new\0old\0`. Paths are raw (no quoting with -z) and relative
 * to the repository root. `complete` is false for output cut off at the read limit.
 */
export function parsePorcelainZ(output: string, complete = true): Status {
  const lists: Status = {
    modifiedFiles: [],
    stagedFiles: [],
    untrackedFiles: [],
    branch: null,
    clean: complete,
  };
  const fields = output.split('\0');
  if (fields[0]?.startsWith('## ')) lists.branch = parseBranchHeader(fields.shift() ?? '');
  // The last field is '' after a final NUL, or a cut-off entry when the output was truncated.
  fields.pop();
  if (!complete && fields.length > 0 && /^[RC]/.test(fields[fields.length - 1] ?? '')) {
    fields.pop(); // a rename whose original path was cut off
  }
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] ?? '';
    if (entry.length < 4) continue;
    lists.clean = false;
    const x = entry[0] ?? ' ';
    const y = entry[1] ?? ' ';
    const path = entry.slice(3);
    if (x === 'R' || x === 'C') i++; // skip the original path
    if (x === '?' && y === '?') {
      lists.untrackedFiles.push(path);
      continue;
    }
    if (x === '!' && y === '!') continue;
    const unmerged = x === 'U' || y === 'U' || (x === 'A' && y === 'A') || (x === 'D' && y === 'D');
    if (unmerged) {
      lists.modifiedFiles.push(path);
      continue;
    }
    if (x !== ' ') lists.stagedFiles.push(path);
    if (y !== ' ') lists.modifiedFiles.push(path);
  }
  return lists;
}

/** One `git status` for the branch and the three file lists (needs git 2.17 for --no-ahead-behind). */
function readStatus(root: string): Status {
  const run = runGit(
    root,
    ['status', '--porcelain=v1', '-z', '-b', '--no-ahead-behind', '--untracked-files=all'],
    { maxBuffer: STATUS_READ_BYTES },
  );
  if (!run.ok && !run.overflow) {
    return { modifiedFiles: [], stagedFiles: [], untrackedFiles: [], branch: null, clean: false };
  }
  return parsePorcelainZ(run.stdout.toString('utf8'), !run.overflow);
}

const DIFF_ARGS = ['diff', '--no-color', '--no-ext-diff', '--no-textconv'];
const DIFF_CONFIG = ['core.quotePath=false'];

function readDiff(root: string, head: string | null): string {
  const limit = CHECKPOINT_LIMITS.diffBytes;
  const runs = head
    ? [
        runGit(root, [...DIFF_ARGS, head, '--'], {
          maxBuffer: DIFF_READ_BYTES,
          config: DIFF_CONFIG,
        }),
      ]
    : [
        // No commits yet: what is staged, then what changed since staging.
        runGit(root, [...DIFF_ARGS, '--cached', '--'], {
          maxBuffer: DIFF_READ_BYTES,
          config: DIFF_CONFIG,
        }),
        runGit(root, [...DIFF_ARGS, '--'], { maxBuffer: DIFF_READ_BYTES, config: DIFF_CONFIG }),
      ];
  let text = '';
  let overflow = false;
  for (const run of runs) {
    if (!run.ok && !run.overflow) continue;
    text += run.stdout.toString('utf8');
    overflow ||= run.overflow;
    if (overflow || Buffer.byteLength(text) > limit) break;
  }
  return capUtf8(text, limit, overflow);
}

const CHECKPOINT_ID = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

function snapshotRef(checkpointId: string): string {
  if (
    !CHECKPOINT_ID.test(checkpointId) ||
    checkpointId.includes('..') ||
    checkpointId.endsWith('.lock') ||
    checkpointId.endsWith('.') ||
    checkpointId.length > 200
  ) {
    throw new AppError(
      'USAGE',
      `"${checkpointId}" cannot be used as a snapshot name`,
      'Checkpoint ids must be letters, digits, ".", "_" and "-".',
    );
  }
  return SNAPSHOT_REF_PREFIX + checkpointId;
}

const identityEnv = {
  GIT_AUTHOR_NAME: SNAPSHOT_IDENTITY.name,
  GIT_AUTHOR_EMAIL: SNAPSHOT_IDENTITY.email,
  GIT_COMMITTER_NAME: SNAPSHOT_IDENTITY.name,
  GIT_COMMITTER_EMAIL: SNAPSHOT_IDENTITY.email,
};

/**
 * The tree of the working tree as `git add -A` sees it, built in a throwaway index. `skipped` is
 * git's complaint about files it could not read (left out, or at their indexed content).
 */
function workingTreeTree(repo: RepoInfo, head: string | null): { tree: string; skipped?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'shim-git-'));
  try {
    const index = join(dir, 'index');
    // Starting from a copy keeps the stat data, so only changed files are hashed again.
    // core.splitIndex=false: a split temp index would write a sharedindex file into .git.
    const call: GitCall = { env: { GIT_INDEX_FILE: index }, config: ['core.splitIndex=false'] };
    // --ignore-errors: an unreadable or vanishing file costs that file, not the whole snapshot
    // (git then exits 1 instead of 128, with the index written).
    const addAll = () => runGit(repo.root, ['add', '-A', '--ignore-errors'], call);
    const added = (run: GitRun) => run.status === 0 || run.status === 1;
    if (existsSync(repo.indexPath)) copyFileSync(repo.indexPath, index);
    let add = addAll();
    if (!added(add) && !add.missing) {
      // An index this git cannot use as a copy: rebuild it from HEAD and try once more.
      rmSync(index, { force: true });
      if (head) gitOrThrow(repo.root, ['read-tree', head], call);
      add = addAll();
    }
    if (!added(add)) throw new Error(`git add failed: ${add.stderr || `exit ${add.status}`}`);
    const tree = gitOrThrow(repo.root, ['write-tree'], call);
    return add.status === 0 ? { tree } : { tree, skipped: add.stderr || 'some files were skipped' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function takeSnapshot(
  repo: RepoInfo,
  status: Status,
  ref: string,
  checkpointId: string,
): { snapshot: GitSnapshot; skipped?: string } {
  const { head } = repo;
  let commit: string;
  let skipped: string | undefined;
  if (head !== null && status.clean) {
    // `git status` found nothing staged, modified or untracked: `git add -A` would give HEAD's
    // tree, so the ref pins HEAD itself and no commit is made.
    commit = head;
  } else {
    const built = workingTreeTree(repo, head);
    const tree = built.tree;
    skipped = built.skipped;
    const parent = head === null ? [] : ['-p', head];
    commit = gitOrThrow(
      repo.root,
      ['commit-tree', '--no-gpg-sign', tree, ...parent, '-m', `shim snapshot ${checkpointId}`],
      { env: identityEnv },
    );
  }
  gitOrThrow(repo.root, ['update-ref', '-m', `shim snapshot ${checkpointId}`, ref, commit]);
  const snapshot: GitSnapshot = { ref, commit, head, branch: status.branch };
  return skipped === undefined ? { snapshot } : { snapshot, skipped };
}

/**
 * The git side of a checkpoint. Never throws for environmental reasons: outside a repository,
 * in a bare repository or without git everything is null or empty, and a snapshot git could not
 * make is null with `snapshotError` saying why. Throws `AppError('USAGE')` only for a
 * checkpoint id that cannot be part of a ref name (a caller bug), before running anything.
 */
export function captureGitState(cwd: string, options: CaptureOptions = {}): GitCapture {
  const ref = options.snapshot ? snapshotRef(options.snapshot.checkpointId) : null;
  const empty: GitCapture = {
    repoRoot: null,
    branch: null,
    head: null,
    modifiedFiles: [],
    stagedFiles: [],
    untrackedFiles: [],
    uncommittedDiff: '',
    snapshot: null,
  };
  const repo = repoInfo(cwd);
  if (repo === null) return empty;
  const status = readStatus(repo.root);
  const capture: GitCapture = {
    ...empty,
    repoRoot: repo.root,
    branch: status.branch,
    head: repo.head,
    modifiedFiles: status.modifiedFiles,
    stagedFiles: status.stagedFiles,
    untrackedFiles: status.untrackedFiles,
    uncommittedDiff: readDiff(repo.root, repo.head),
  };
  if (ref !== null && options.snapshot) {
    try {
      const taken = takeSnapshot(repo, status, ref, options.snapshot.checkpointId);
      capture.snapshot = taken.snapshot;
      if (taken.skipped !== undefined) capture.snapshotError = taken.skipped;
    } catch (error) {
      capture.snapshotError = error instanceof Error ? error.message : String(error);
    }
  }
  return capture;
}

function requireRepo(cwd: string): RepoInfo {
  const repo = repoInfo(cwd);
  if (repo !== null) return repo;
  const gitMissing = runGit(cwd, ['--version']).missing;
  throw gitMissing
    ? new AppError('USAGE', 'git is not installed', 'Install git and make sure it is on PATH.')
    : new AppError(
        'USAGE',
        `${cwd} is not inside a git working tree`,
        'Run this from the repository the checkpoint was taken in.',
      );
}

function resolveSnapshot(root: string, ref: string): { commit: string; shortId: string } {
  const id = ref.startsWith(SNAPSHOT_REF_PREFIX) ? ref.slice(SNAPSHOT_REF_PREFIX.length) : ref;
  const candidates =
    !ref.startsWith('refs/') && CHECKPOINT_ID.test(ref) ? [SNAPSHOT_REF_PREFIX + ref, ref] : [ref];
  for (const candidate of candidates) {
    const commit = resolveCommit(root, candidate);
    if (commit !== null) {
      const shortId = candidate === ref && !ref.startsWith(SNAPSHOT_REF_PREFIX) ? commit : id;
      return { commit, shortId: shortId.slice(0, 12).replace(/\.+$/, '') };
    }
  }
  throw new AppError(
    'USAGE',
    `no snapshot or commit named "${ref}" in ${root}`,
    'List snapshots with `git for-each-ref refs/shim/snapshots/`; the snapshot ref may have been deleted with its checkpoint.',
  );
}

function validBranchName(root: string, name: string): boolean {
  return !name.startsWith('-') && runGit(root, ['check-ref-format', '--branch', name]).ok;
}

function branchExists(root: string, name: string): boolean {
  return runGit(root, ['show-ref', '--verify', '-q', `refs/heads/${name}`]).ok;
}

/**
 * Brings a snapshot's files back as a NEW branch (default) or a NEW worktree on a new branch.
 * `ref` is a checkpoint id, a `refs/shim/snapshots/…` ref, or any commit. Never checks anything
 * out over the current working tree, so uncommitted work there cannot be lost. The branch
 * defaults to `shim/restore-<first 12 characters of the checkpoint id or commit>`; an existing
 * branch or a non-empty existing worktree path is refused with an `AppError`.
 */
export function restoreSnapshot(
  cwd: string,
  ref: string,
  target: RestoreTarget = {},
): RestoreResult {
  const repo = requireRepo(cwd);
  const { commit, shortId } = resolveSnapshot(repo.root, ref);
  const branch = target.branch ?? `shim/restore-${shortId}`;
  if (!validBranchName(repo.root, branch)) {
    throw new AppError('USAGE', `"${branch}" is not a valid branch name`, 'Pick another --branch.');
  }
  if (branchExists(repo.root, branch)) {
    throw new AppError(
      'USAGE',
      `branch ${branch} already exists`,
      'Pick another branch name, or delete the branch first (git branch -D) if it is disposable.',
    );
  }
  if (target.worktree === undefined) {
    gitOrThrow(repo.root, ['branch', '--no-track', branch, commit]);
    return { branch, worktree: null, commit };
  }
  const path = resolve(cwd, target.worktree);
  if (existsSync(path) && (!statSync(path).isDirectory() || readdirSync(path).length > 0)) {
    throw new AppError(
      'USAGE',
      `${path} already exists and is not empty`,
      'Pick a new or empty directory for the restored worktree.',
    );
  }
  const run = runGit(repo.root, ['worktree', 'add', '-q', '-b', branch, path, commit]);
  if (!run.ok) {
    throw new AppError(
      'USAGE',
      `git worktree add failed: ${run.stderr || `exit ${run.status}`}`,
      'Check the path and branch name, then try again.',
    );
  }
  return { branch, worktree: path, commit };
}

/** Every snapshot ref in the repository (shared by all its worktrees); [] outside one. */
export function listSnapshots(cwd: string): SnapshotInfo[] {
  const repo = repoInfo(cwd);
  if (repo === null) return [];
  const run = runGit(
    repo.root,
    ['for-each-ref', '--format=%(refname)%00%(objectname)', SNAPSHOT_REF_PREFIX],
    { maxBuffer: STATUS_READ_BYTES },
  );
  if (!run.ok) return [];
  const snapshots: SnapshotInfo[] = [];
  for (const line of run.stdout.toString('utf8').split('\n')) {
    const [ref, commit] = line.split('\0');
    if (!ref || !commit) continue;
    snapshots.push({ checkpointId: ref.slice(SNAPSHOT_REF_PREFIX.length), ref, commit });
  }
  return snapshots;
}

/** Deletes a checkpoint's snapshot ref; true when it existed. Git's gc later prunes the commit. */
export function deleteSnapshot(cwd: string, checkpointId: string): boolean {
  const ref = snapshotRef(checkpointId);
  const repo = repoInfo(cwd);
  if (repo === null) return false;
  if (resolveCommit(repo.root, ref) === null) return false;
  return runGit(repo.root, ['update-ref', '-d', ref]).ok;
}

/** Per-worktree markers of an operation that a WIP commit would get in the middle of. */
const IN_PROGRESS: Array<[file: string, what: string]> = [
  ['MERGE_HEAD', 'merge'],
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase or am'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
];

/**
 * OPT-IN, and unlike everything else here it DOES touch the user's branch and index (docs/specification.md,
 * "commit WIP if uncommitted changes"): stages everything (`git add -A`: tracked and untracked,
 * .gitignore respected) and commits it to the current branch (or detached HEAD) with `message`.
 * Runs `git commit --no-verify` (a WIP commit is not expected to pass pre-commit checks), with
 * the user's identity when configured and the `shim` identity otherwise. Returns the new commit,
 * or null when there was nothing to commit. Throws `AppError` outside a repository, during a
 * merge, rebase, cherry-pick or revert (staging would resolve conflicts with their markers in),
 * or when the commit fails.
 */
export function commitWip(cwd: string, message: string): string | null {
  const repo = requireRepo(cwd);
  const busy = IN_PROGRESS.find(([file]) => existsSync(join(repo.gitDir, file)));
  if (busy) {
    throw new AppError(
      'USAGE',
      `a ${busy[1]} is in progress in ${repo.root}; not committing work in progress`,
      `Finish or abort the ${busy[1]} first (staging now could commit conflict markers).`,
    );
  }
  const add = runGit(repo.root, ['add', '-A']);
  if (!add.ok) {
    throw new AppError('USAGE', `git add failed: ${add.stderr}`, 'Resolve the problem and retry.');
  }
  const head = repo.head;
  // Nothing staged relative to HEAD (or, without commits, nothing in the index at all).
  const nothing = head
    ? runGit(repo.root, ['diff', '--cached', '--quiet', '--no-ext-diff', head, '--']).status === 0
    : runGit(repo.root, ['ls-files', '-z']).stdout.length === 0;
  if (nothing) return null;
  const env: Record<string, string> = {};
  if (gitLine(repo.root, ['config', 'user.name']) === null) {
    env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = SNAPSHOT_IDENTITY.name;
  }
  if (gitLine(repo.root, ['config', 'user.email']) === null) {
    env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = SNAPSHOT_IDENTITY.email;
  }
  const commit = runGit(repo.root, ['commit', '-q', '--no-verify', '-m', message], { env });
  if (!commit.ok) {
    throw new AppError(
      'USAGE',
      `git commit failed: ${commit.stderr || `exit ${commit.status}`}`,
      'Commit by hand, or resolve the problem git reports and retry.',
    );
  }
  return resolveCommit(repo.root, 'HEAD');
}
