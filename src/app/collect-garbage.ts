/** `shim gc`: old checkpoints, their git snapshot refs, and cursors of vanished transcripts. */
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { deleteSnapshot } from '../capture/git.ts';
import { AppError } from '../core/errors.ts';
import { readJsonFile } from '../store/json-file.ts';
import { withStore } from './open-store.ts';

export type GarbageResult = {
  retentionDays: number;
  deletedCheckpoints: number;
  deletedSnapshots: number;
  deletedCursors: number;
};

export async function collectGarbage(options: {
  home: string;
  retentionDays: number;
  now: number;
}): Promise<GarbageResult> {
  const { home, retentionDays, now } = options;
  if (!Number.isFinite(retentionDays) || retentionDays < 0) {
    throw new AppError(
      'USAGE',
      `--retention-days must be a number of days ≥ 0, got ${String(retentionDays)}`,
      'e.g. shim gc --retention-days 30',
    );
  }
  const { deleted, snapshots } = await withStore(home, ({ checkpoints }) =>
    checkpoints.cleanup(retentionDays, now),
  );
  let deletedSnapshots = 0;
  for (const snapshot of snapshots) {
    // The ref lives in the repository the session worked in; gone directories took it with them.
    if (
      snapshot.cwd &&
      existsSync(snapshot.cwd) &&
      deleteSnapshot(snapshot.cwd, snapshot.checkpointId)
    )
      deletedSnapshots++;
  }
  return {
    retentionDays,
    deletedCheckpoints: deleted,
    deletedSnapshots,
    deletedCursors: removeStaleCursors(home, now, retentionDays),
  };
}

/** Cursor caches whose transcript is gone, or that nobody used within the retention period. */
function removeStaleCursors(home: string, now: number, retentionDays: number): number {
  const dir = join(home, 'cache', 'cursors');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    try {
      const cursor = readJsonFile(path) as { state?: { cwd?: string } } | null;
      const old = now - statSync(path).mtimeMs > retentionDays * 86_400_000;
      if (cursor === null || old) {
        unlinkSync(path);
        removed++;
      }
    } catch {
      // raced with another process
    }
  }
  return removed;
}
