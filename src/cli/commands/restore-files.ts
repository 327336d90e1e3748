import { withStore } from '../../app/open-store.ts';
import { findCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import { restoreSnapshot } from '../../capture/git-snapshots.ts';
import { AppError } from '../../core/errors.ts';
import { ensureSnapshotHere } from '../../app/team/team-snapshot.ts';
import { loadConfig } from '../../store/config/config.ts';
import { getShimHome } from '../../store/home/home.ts';

export async function runRestoreFiles(
  id: string,
  options: { branch?: string; worktree?: string; json?: boolean },
): Promise<void> {
  const checkpoint = await withStore(getShimHome(), ({ checkpoints }) =>
    findCheckpoint(checkpoints, id),
  );
  const { snapshot, repoRoot } = checkpoint.fileState;
  if (!snapshot || !repoRoot) {
    throw new AppError(
      'CHECKPOINT_NOT_FOUND',
      `checkpoint ${checkpoint.id.slice(0, 8)} has no git snapshot (it was taken outside a git repository, or with --no-snapshot)`,
      '`shim show` lists the files it recorded',
    );
  }
  // Taken on another machine: its files come through the team store (or the error says how).
  await ensureSnapshotHere(
    checkpoint,
    repoRoot,
    await loadConfig(getShimHome(), { lenient: true }),
    process.env,
  );
  const target = {
    ...(options.branch ? { branch: options.branch } : {}),
    ...(options.worktree ? { worktree: options.worktree } : {}),
  };
  const result = restoreSnapshot(repoRoot, snapshot.ref, target);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ checkpointId: checkpoint.id, ...result }, null, 2)}\n`,
    );
    return;
  }
  const where = result.worktree
    ? `worktree ${result.worktree} (branch ${result.branch})`
    : `branch ${result.branch}`;
  process.stdout.write(
    `restored the files of checkpoint #${checkpoint.checkpointNumber} (${checkpoint.id.slice(0, 8)}) into ${where} at ${result.commit.slice(0, 12)}\n` +
      `your current branch and working tree were not touched${result.worktree ? '' : `; look with \`git switch ${result.branch}\` after committing or stashing your work`}\n`,
  );
}
