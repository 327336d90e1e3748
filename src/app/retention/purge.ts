/**
 * What shim leaves behind after `shim uninstall`, and removing it (`--purge`): SHIM_HOME (the
 * store, handoffs, logs, caches, loop runs) and the git snapshot refs in the repositories its
 * checkpoints were taken in. Settings files are `shim uninstall`'s business, not this.
 * @module
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deleteSnapshot, listSnapshots } from '../../capture/git-snapshots.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { hasStore, withStore } from '../open-store.ts';

export type Leftovers = {
  home: string;
  homeExists: boolean;
  homeBytes: number;
  checkpoints: number;
  /** Repositories holding refs/shim/snapshots/*, with how many each. */
  snapshotRepos: Array<{ repo: string; refs: number }>;
};

function sizeOf(path: string): number {
  try {
    const s = statSync(path);
    if (!s.isDirectory()) return s.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  } catch {
    return 0;
  }
}

export async function findLeftovers(home: string): Promise<Leftovers> {
  const homeExists = existsSync(home);
  let checkpoints = 0;
  let cwds: string[] = [];
  if (homeExists && hasStore(home)) {
    ({ checkpoints, cwds } = await withStore(home, ({ maintenance, checkpoints: repo }) => ({
      checkpoints: repo.count(),
      cwds: maintenance.snapshotDirectories(),
    })));
  }
  const repos = new Map<string, number>();
  for (const cwd of cwds) {
    if (!existsSync(cwd)) continue;
    const repo = findProjectRoot(cwd);
    if (repos.has(repo)) continue;
    const snapshots = listSnapshots(repo);
    if (snapshots.length > 0) repos.set(repo, snapshots.length);
  }
  return {
    home,
    homeExists,
    homeBytes: homeExists ? sizeOf(home) : 0,
    checkpoints,
    snapshotRepos: [...repos].map(([repo, refs]) => ({ repo, refs })),
  };
}

/** Deletes the snapshot refs, then SHIM_HOME. Returns how many refs went. */
export function purge(leftovers: Leftovers): number {
  let refs = 0;
  for (const { repo } of leftovers.snapshotRepos) {
    for (const s of listSnapshots(repo)) if (deleteSnapshot(repo, s.checkpointId)) refs++;
  }
  if (leftovers.homeExists) rmSync(leftovers.home, { recursive: true, force: true });
  return refs;
}
