/**
 * The WIP commit (docs/specification.md): opt-in, since unlike everything else in shim it moves
 * the user's branch.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../core/errors.ts';
import { gitLine, resolveCommit, runGit, SNAPSHOT_IDENTITY } from './git-run.ts';
import { requireRepo } from './git-snapshots.ts';

/** Per-worktree markers of an operation that a WIP commit would get in the middle of. */
export const IN_PROGRESS: Array<[file: string, what: string]> = [
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
