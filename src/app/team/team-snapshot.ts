/**
 * A checkpoint's snapshot in this clone when it was taken on another machine (docs/team.md, "The
 * files travel"): its patch fetched from the team store and applied onto its base commit here,
 * which makes the snapshot ref `shim restore-files` reads. When that cannot be done the error
 * says exactly why and what to do instead; never a command that cannot work here.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import { resolveCommit } from '../../capture/git-run.ts';
import { rebuildSnapshot } from '../../capture/snapshot-patch.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { openTeamRepository } from './open-team-store.ts';
import { resolveTeamUrl } from './team-url.ts';

const short = (id: string) => id.slice(0, 8);

/** Makes the snapshot of `checkpoint` available in `repoRoot`; a no-op when it is already here. */
export async function ensureSnapshotHere(
  checkpoint: Checkpoint,
  repoRoot: string,
  config: Pick<ShimConfig, 'team'>,
  env: Env,
): Promise<void> {
  const snapshot = checkpoint.fileState.snapshot;
  if (!snapshot || resolveCommit(repoRoot, snapshot.ref) !== null) return;
  const id = short(checkpoint.id);
  const target = resolveTeamUrl(config, env);
  if (target === null)
    throw new AppError(
      'SNAPSHOT_NOT_HERE',
      `the files of checkpoint ${id} are in the clone it was taken in, not this one`,
      `run \`shim restore-files ${id}\` on the machine that took it, or connect the team store it travelled through (shim team connect)`,
    );
  const repository = await openTeamRepository({ url: target.url });
  let patch;
  try {
    patch = await repository.filePatch(checkpoint.id);
  } finally {
    await repository.close();
  }
  if (patch === null)
    throw new AppError(
      'SNAPSHOT_NOT_HERE',
      `the files of checkpoint ${id} did not travel (only a session's newest checkpoint takes its files to the team store)`,
      `restore the session's newest checkpoint's files (\`shim list\`), or run \`shim restore-files ${id}\` on the machine that took it`,
    );
  if (patch.patch === '' && patch.bytes > 0)
    throw new AppError(
      'SNAPSHOT_NOT_HERE',
      `the files of checkpoint ${id} (${Math.ceil(patch.bytes / 1024)} KB) were too large to travel`,
      `on the machine that took it: \`shim restore-files ${id}\`, then push that branch and fetch it here`,
    );
  const rebuilt = rebuildSnapshot(repoRoot, checkpoint.id, patch, `shim snapshot ${checkpoint.id}`);
  if (rebuilt.ok) return;
  if (rebuilt.why === 'base-missing')
    throw new AppError(
      'SNAPSHOT_NOT_HERE',
      `the files of checkpoint ${id} are changes on commit ${rebuilt.detail.slice(0, 12)}, which this clone does not have`,
      `fetch it (\`git fetch origin\`; the other machine may need to push it first), then run \`shim restore-files ${id}\` again`,
    );
  throw new AppError(
    'SNAPSHOT_NOT_HERE',
    `the files of checkpoint ${id} do not apply in this clone: ${rebuilt.detail}`,
    `run \`shim restore-files ${id}\` on the machine that took it and push the branch`,
  );
}
