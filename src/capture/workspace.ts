/**
 * What the loop supervisor needs to know about the working tree between iterations: where the
 * loop began, which files changed since, and a fingerprint that changes whenever any file does
 * (to tell an iteration that changed nothing). Read-only: nothing here writes to the repository.
 * @module
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from './git-run.ts';

const DIFF_BYTES = 64 * 1024 * 1024;

/** HEAD's commit, or null outside a repository or before the first commit. */
export function getHeadCommit(cwd: string): string | null {
  const run = runGit(cwd, ['rev-parse', '--verify', '-q', 'HEAD']);
  return run.ok ? run.stdout.toString('utf8').trim() || null : null;
}

function splitZ(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((s) => s.length > 0);
}

/**
 * A hash of HEAD, the index, tracked changes (full diff) and untracked files (name, size,
 * mtime); null outside a git repository (unknown, which never counts as "no change"). Two git
 * processes: it runs after every loop iteration.
 */
export function getWorkspaceFingerprint(cwd: string): string | null {
  // v2 with --branch carries HEAD's commit; "?" entries are the untracked files.
  const status = runGit(
    cwd,
    ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'],
    { maxBuffer: DIFF_BYTES },
  );
  if (!status.ok) return null;
  const hash = createHash('sha1');
  hash.update(status.stdout);
  const entries = splitZ(status.stdout);
  const hasHead = !entries.some((e) => e === '# branch.oid (initial)');
  // Before the first commit there is no HEAD: the worktree against the index instead.
  const diff = runGit(
    cwd,
    ['diff', ...(hasHead ? ['HEAD'] : []), '--binary', '--no-color', '--no-ext-diff'],
    { maxBuffer: DIFF_BYTES },
  );
  hash.update(diff.ok || diff.overflow ? diff.stdout : Buffer.from('no-diff'));
  for (const entry of entries) {
    if (!entry.startsWith('? ')) continue;
    const file = entry.slice(2);
    try {
      const stat = statSync(join(cwd, file));
      hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\0`);
    } catch {
      hash.update(`${file}\0gone\0`);
    }
  }
  return hash.digest('hex');
}

/**
 * Files changed since `since` (committed or not) plus untracked ones, sorted; null outside a
 * repository. Without a start commit, only uncommitted changes are known.
 */
export function listChangedFilesSince(cwd: string, since: string | null): string[] | null {
  const base = since ?? getHeadCommit(cwd);
  const files = new Set<string>();
  if (base) {
    const diff = runGit(cwd, ['diff', '--name-only', '-z', base], { maxBuffer: DIFF_BYTES });
    if (!diff.ok) return null;
    for (const file of splitZ(diff.stdout)) files.add(file);
  }
  const untracked = runGit(cwd, ['ls-files', '--others', '--exclude-standard', '-z'], {
    maxBuffer: DIFF_BYTES,
  });
  if (!untracked.ok) return base ? [...files].sort() : null;
  for (const file of splitZ(untracked.stdout)) files.add(file);
  return [...files].sort();
}
