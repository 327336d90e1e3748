/**
 * Bringing a checkpoint's snapshot back (into a new branch or worktree, never over the user's
 * work), listing snapshots and deleting them when their checkpoint goes.
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError } from '../core/errors.ts';

import {
  gitOrThrow,
  repoInfo,
  resolveCommit,
  runGit,
  SNAPSHOT_REF_PREFIX,
  STATUS_READ_BYTES,
  type RepoInfo,
} from './git-run.ts';
import {
  CHECKPOINT_ID,
  snapshotRef,
  type RestoreResult,
  type RestoreTarget,
  type SnapshotInfo,
} from './git.ts';

export function requireRepo(cwd: string): RepoInfo {
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

export function resolveSnapshot(root: string, ref: string): { commit: string; shortId: string } {
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

export function validBranchName(root: string, name: string): boolean {
  return !name.startsWith('-') && runGit(root, ['check-ref-format', '--branch', name]).ok;
}

export function branchExists(root: string, name: string): boolean {
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
