/**
 * Git state for checkpoints (the checkpoint's `fileState`, docs/specification.md): what is modified, staged and
 * untracked, the uncommitted diff, and a snapshot commit of the whole working tree kept under a
 * hidden ref so "the state at checkpoint time" can always be brought back.
 *
 * git runs as git-run.ts says; restoring, listing and deleting snapshots is in
 * git-snapshots.ts, the opt-in WIP commit in wip-commit.ts.
 *
 * Snapshots (`captureGitState(cwd, { snapshot: { checkpointId } })`):
 * - The user's branch, HEAD, index and working tree are never touched. The working tree is
 *   staged into a temporary copy of the index (`GIT_INDEX_FILE`, so unchanged files are not
 *   re-hashed), `git add -A` (tracked and untracked files, .gitignore respected), `git write-tree`,
 *   `git commit-tree -p HEAD` (no parent in a repository without commits; a fixed `shim`
 *   identity so no `user.name`/`user.email` is needed; never signed), then
 *   `git update-ref refs/shim/snapshots/<checkpointId> <commit>`. The temporary index lives in
 *   a private temp directory that is removed on every path out.
 * - The chain (add, write-tree, commit-tree, update-ref) runs as one POSIX `sh` process
 *   (snapshot-script.ts), beside status and diff: it goes on while the caller's thread works.
 *   Where `/bin/sh` cannot start, the checkpoint has no snapshot and `snapshotError` says why.
 * - Nothing uncommitted (the tree `git add -A` gives equals HEAD's): no commit is made, and the
 *   ref points at the HEAD commit itself, so `snapshot.commit === snapshot.head`. The ref is
 *   still written because it keeps that commit reachable even if the branch is later reset or
 *   rebased: the caller can always restore from `snapshot.ref`. (Changes `git add -A` does not
 *   record, such as edits inside a submodule, leave the tree equal: HEAD is pinned.)
 * - Cost: 3 git processes without a snapshot (rev-parse, status, diff), and a shell running 4
 *   for a snapshot of a clean tree (add, write-tree, rev-parse of HEAD's tree, update-ref), 5
 *   otherwise (+ commit-tree). Untracked files are hashed on every snapshot (they have no stat
 *   data in the index to reuse).
 * - Captured: the content of every non-ignored file in the working tree. Not captured: ignored
 *   files, the staged/unstaged split (recorded separately in `stagedFiles`/`modifiedFiles`), and
 *   uncommitted changes inside submodules (a submodule is recorded at its checked-out commit).
 * - Refs under `refs/shim/` are not fetched by clones nor pushed by a plain `git push` (a
 *   `git push --mirror` would push them). Delete them with {@link deleteSnapshot} when their
 *   checkpoint is deleted; git's own gc then prunes the commits.
 * @module
 */
import type { GitFacts } from '../core/checkpoint/build-checkpoint.ts';
import type { GitSnapshot } from '../core/checkpoint/checkpoint.ts';
import { CHECKPOINT_LIMITS } from '../core/checkpoint/checkpoint-limits.ts';
import { AppError } from '../core/errors.ts';
import {
  capUtf8,
  repoInfoAsync,
  runGitAsync,
  DIFF_READ_BYTES,
  SNAPSHOT_REF_PREFIX,
  STATUS_READ_BYTES,
} from './git-run.ts';
import { runSnapshotScript } from './snapshot-script.ts';

/** The facts the checkpoint builder needs (see GitFacts), plus why a snapshot failed. */
export type GitCapture = GitFacts & {
  /**
   * Why a requested snapshot is null (git failed), or, beside a snapshot, which files git could
   * not read and left out of it. Absent when all went well or no snapshot was asked for.
   */
  snapshotError?: string;
};

type StatusLists = Pick<GitCapture, 'modifiedFiles' | 'stagedFiles' | 'untrackedFiles'>;
export type Status = StatusLists & { branch: string | null; clean: boolean };

export type CaptureOptions = {
  snapshot?: { checkpointId: string };
  /**
   * false: leave the uncommitted diff empty (a pending checkpoint reads it from its snapshot later,
   * {@link readSnapshotDiff}, so that no diff is written outside the store).
   */
  diff?: false;
};

export type SnapshotInfo = { checkpointId: string; ref: string; commit: string };

export type RestoreTarget = { branch?: string; worktree?: string };

export type RestoreResult = { branch: string | null; worktree: string | null; commit: string };

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
export async function readStatus(root: string): Promise<Status> {
  const run = await runGitAsync(
    root,
    ['status', '--porcelain=v1', '-z', '-b', '--no-ahead-behind', '--untracked-files=all'],
    { maxBuffer: STATUS_READ_BYTES },
  );
  if (!run.ok && !run.overflow) {
    return { modifiedFiles: [], stagedFiles: [], untrackedFiles: [], branch: null, clean: false };
  }
  return parsePorcelainZ(run.stdout.toString('utf8'), !run.overflow);
}

export const DIFF_ARGS = ['diff', '--no-color', '--no-ext-diff', '--no-textconv'];
export const DIFF_CONFIG = ['core.quotePath=false'];

/** Paths named to git at most, per diff read from a snapshot (the diff is cut at 64 KB anyway). */
const SNAPSHOT_DIFF_PATHS = 2000;

/**
 * The uncommitted diff as `git diff HEAD` showed it when a snapshot was taken, read from the
 * snapshot: HEAD against the snapshot's commit, over the files status listed as modified or
 * staged (the snapshot also holds untracked files, which `git diff HEAD` leaves out).
 */
export async function readSnapshotDiff(
  root: string,
  head: string,
  snapshotCommit: string,
  changedFiles: readonly string[],
): Promise<string> {
  const paths = [...new Set(changedFiles)].sort().slice(0, SNAPSHOT_DIFF_PATHS);
  if (paths.length === 0 || snapshotCommit === head) return '';
  const run = await runGitAsync(root, [...DIFF_ARGS, head, snapshotCommit, '--', ...paths], {
    maxBuffer: DIFF_READ_BYTES,
    config: DIFF_CONFIG,
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
  if (!run.ok && !run.overflow) return '';
  return capUtf8(run.stdout.toString('utf8'), CHECKPOINT_LIMITS.diffBytes, run.overflow);
}

/** A capture taken with `diff: false`, its uncommitted diff read now. */
export async function addUncommittedDiff(capture: GitCapture): Promise<GitCapture> {
  if (!capture.repoRoot) return capture;
  return { ...capture, uncommittedDiff: await readDiff(capture.repoRoot, capture.head) };
}

export async function readDiff(root: string, head: string | null): Promise<string> {
  const limit = CHECKPOINT_LIMITS.diffBytes;
  const runs = await Promise.all(
    head
      ? [
          runGitAsync(root, [...DIFF_ARGS, head, '--'], {
            maxBuffer: DIFF_READ_BYTES,
            config: DIFF_CONFIG,
          }),
        ]
      : [
          // No commits yet: what is staged, then what changed since staging.
          runGitAsync(root, [...DIFF_ARGS, '--cached', '--'], {
            maxBuffer: DIFF_READ_BYTES,
            config: DIFF_CONFIG,
          }),
          runGitAsync(root, [...DIFF_ARGS, '--'], {
            maxBuffer: DIFF_READ_BYTES,
            config: DIFF_CONFIG,
          }),
        ],
  );
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

export const CHECKPOINT_ID = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

export function snapshotRef(checkpointId: string): string {
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

/**
 * The git side of a checkpoint. Never throws for environmental reasons: outside a repository,
 * in a bare repository or without git everything is null or empty, and a snapshot git could not
 * make is null with `snapshotError` saying why. Throws `AppError('USAGE')` only for a
 * checkpoint id that cannot be part of a ref name (a caller bug), before running anything.
 */
export function captureGitState(cwd: string, options: CaptureOptions = {}): Promise<GitCapture> {
  // A bad id is the caller's bug: said at once, before any git runs.
  const ref = options.snapshot ? snapshotRef(options.snapshot.checkpointId) : null;
  return capture(cwd, ref, options);
}

/** What git says outside a repository (or where git cannot run): nothing. */
export const NO_GIT: Readonly<GitCapture> = {
  repoRoot: null,
  branch: null,
  head: null,
  modifiedFiles: [],
  stagedFiles: [],
  untrackedFiles: [],
  uncommittedDiff: '',
  snapshot: null,
};

async function capture(
  cwd: string,
  ref: string | null,
  options: CaptureOptions,
): Promise<GitCapture> {
  const empty: GitCapture = { ...NO_GIT };
  // Every git process starts now, none waiting for another: where the repository is, status,
  // diff and the snapshot's chain (which finds HEAD itself) all run while the caller goes on
  // (the blocking checkpoint before a risky command loads its code meanwhile). status and diff
  // run in the session's directory: they cover the whole work tree from any directory of it.
  const info = repoInfoAsync(cwd);
  const status = readStatus(cwd);
  const diffAtHead = options.diff === false ? Promise.resolve('') : readDiff(cwd, 'HEAD');
  const snapshotRun =
    ref !== null && options.snapshot
      ? runSnapshotScript(cwd, ref, options.snapshot.checkpointId).then(
          (taken) => taken,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        )
      : null;
  const repo = await info;
  if (repo === null) {
    await Promise.all([status, diffAtHead, snapshotRun]);
    return empty;
  }
  let snapshot: GitSnapshot | null = null;
  let snapshotError: string | undefined;
  const taken = await snapshotRun;
  if (taken instanceof Error) snapshotError = taken.message;
  else if (taken) {
    snapshot = { ...taken.snapshot, branch: (await status).branch };
    snapshotError = taken.skipped;
  }
  const { branch, modifiedFiles, stagedFiles, untrackedFiles } = await status;
  const capture: GitCapture = {
    ...empty,
    repoRoot: repo.root,
    branch,
    head: repo.head,
    modifiedFiles,
    stagedFiles,
    untrackedFiles,
    // Without commits `git diff HEAD` has nothing to compare with: the index and the tree instead.
    uncommittedDiff:
      repo.head === null && options.diff !== false
        ? await readDiff(repo.root, null)
        : await diffAtHead,
    snapshot,
  };
  return snapshotError === undefined ? capture : { ...capture, snapshotError };
}
