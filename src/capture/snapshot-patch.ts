/**
 * A checkpoint's files as they travel between machines (docs/team.md, "The files travel"): on the
 * machine that took it, its snapshot commit as a binary patch against the commit it was taken on;
 * on another clone of the repository, that patch applied onto the same commit — in a temporary
 * index, never the user's, nor their working tree — makes the same snapshot commit again under
 * `refs/shim/snapshots/<checkpoint>`, so `shim restore-files` works there as it does at home.
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveCommit, runGit, SNAPSHOT_IDENTITY } from './git-run.ts';
import { snapshotRef } from './git.ts';

/** Past this a checkpoint's files do not travel (the restore says so and how to get them). */
export const FILE_PATCH_BYTES = 1024 * 1024;

export type SnapshotPatch =
  | { kind: 'patch'; patch: string; bytes: number; baseCommit: string | null }
  | { kind: 'too-large'; bytes: number; baseCommit: string | null }
  | { kind: 'none'; why: string };

function emptyTree(root: string): string | null {
  const run = runGit(root, ['hash-object', '-t', 'tree', '/dev/null']);
  return run.ok ? run.stdout.toString('utf8').trim() : null;
}

/** `git diff --binary <head> <snapshot>` in the clone the snapshot was taken in. */
export function snapshotPatch(
  repoRoot: string,
  snapshot: { commit: string; head: string | null },
): SnapshotPatch {
  if (resolveCommit(repoRoot, snapshot.commit) === null)
    return { kind: 'none', why: 'the snapshot commit is gone from its clone' };
  const base = snapshot.head ?? emptyTree(repoRoot);
  if (base === null) return { kind: 'none', why: 'git cannot name the empty tree here' };
  const run = runGit(
    repoRoot,
    ['diff', '--binary', '--full-index', '--no-color', '--no-ext-diff', base, snapshot.commit],
    {
      maxBuffer: FILE_PATCH_BYTES + 1,
    },
  );
  if (run.overflow)
    return { kind: 'too-large', bytes: FILE_PATCH_BYTES + 1, baseCommit: snapshot.head };
  if (!run.ok) return { kind: 'none', why: run.stderr || `git diff exited ${run.status}` };
  let patch: string;
  try {
    patch = new TextDecoder('utf-8', { fatal: true }).decode(run.stdout);
  } catch {
    return { kind: 'none', why: 'a changed file is neither UTF-8 text nor marked binary' };
  }
  return { kind: 'patch', patch, bytes: run.stdout.length, baseCommit: snapshot.head };
}

export type Rebuilt =
  | { ok: true; ref: string; commit: string }
  | { ok: false; why: 'base-missing' | 'does-not-apply'; detail: string };

/**
 * Makes `refs/shim/snapshots/<checkpointId>` in the clone at `repoRoot` from `patch` applied on
 * `baseCommit` (null: a repository without commits then). The user's index and files are untouched.
 */
export function rebuildSnapshot(
  repoRoot: string,
  checkpointId: string,
  patch: { patch: string; baseCommit: string | null },
  message: string,
): Rebuilt {
  const base = patch.baseCommit;
  if (base !== null && resolveCommit(repoRoot, `${base}^{commit}`) === null)
    return { ok: false, why: 'base-missing', detail: base };
  const dir = mkdtempSync(join(tmpdir(), 'shim-files-'));
  try {
    const env = { GIT_INDEX_FILE: join(dir, 'index') };
    const file = join(dir, 'files.patch');
    writeFileSync(file, patch.patch);
    const read =
      base !== null
        ? runGit(repoRoot, ['read-tree', base], { env })
        : runGit(repoRoot, ['read-tree', '--empty'], { env });
    if (!read.ok) return { ok: false, why: 'does-not-apply', detail: read.stderr };
    if (patch.patch.trim() !== '') {
      const apply = runGit(
        repoRoot,
        ['apply', '--cached', '--binary', '--whitespace=nowarn', file],
        { env },
      );
      if (!apply.ok)
        return { ok: false, why: 'does-not-apply', detail: apply.stderr.split('\n')[0] ?? '' };
    }
    const tree = runGit(repoRoot, ['write-tree'], { env });
    if (!tree.ok) return { ok: false, why: 'does-not-apply', detail: tree.stderr };
    const identity = {
      GIT_AUTHOR_NAME: SNAPSHOT_IDENTITY.name,
      GIT_AUTHOR_EMAIL: SNAPSHOT_IDENTITY.email,
      GIT_COMMITTER_NAME: SNAPSHOT_IDENTITY.name,
      GIT_COMMITTER_EMAIL: SNAPSHOT_IDENTITY.email,
    };
    const commit = runGit(
      repoRoot,
      [
        'commit-tree',
        tree.stdout.toString('utf8').trim(),
        ...(base !== null ? ['-p', base] : []),
        '-m',
        message,
      ],
      { env: identity },
    );
    if (!commit.ok) return { ok: false, why: 'does-not-apply', detail: commit.stderr };
    const sha = commit.stdout.toString('utf8').trim();
    const ref = snapshotRef(checkpointId);
    const update = runGit(repoRoot, ['update-ref', ref, sha]);
    if (!update.ok) return { ok: false, why: 'does-not-apply', detail: update.stderr };
    return { ok: true, ref, commit: sha };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
