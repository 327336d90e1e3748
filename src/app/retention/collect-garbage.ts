/** `shim gc`: old checkpoints, their git snapshot refs, and cursors of vanished transcripts. */
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { deleteSnapshot } from '../../capture/git-snapshots.ts';
import { checkRetentionDays } from '../../core/checkpoint/retention-days.ts';
import { readJsonFile } from '../../store/home/json-file.ts';
import { withStore } from '../open-store.ts';

export type GarbageResult = {
  retentionDays: number;
  maxStoreMB: number | null;
  /** Nothing was deleted: these are what would be. */
  dryRun: boolean;
  deletedCheckpoints: number;
  deletedSnapshots: number;
  deletedCursors: number;
  /** The store file's size before and after (after: compacted when a size cap applied). */
  storeBytes: { before: number; after: number };
};

export type GarbageRequest = {
  home: string;
  retentionDays: number;
  now: number;
  /** Also delete the oldest checkpoints until the store is under this size. */
  maxStoreMB?: number | null;
  dryRun?: boolean;
  /** Called with the number of checkpoints about to go; false cancels (a confirmation). */
  confirm?: (checkpoints: number) => Promise<boolean> | boolean;
};

function storeBytes(home: string): number {
  let total = 0;
  for (const f of ['shim.db', 'shim.db-wal']) {
    try {
      total += statSync(join(home, f)).size;
    } catch {
      // not there
    }
  }
  return total;
}

export async function collectGarbage(request: GarbageRequest): Promise<GarbageResult> {
  const { home, retentionDays, now } = request;
  checkRetentionDays('--retention-days', retentionDays);
  const maxStoreMB = request.maxStoreMB ?? null;
  const before = storeBytes(home);
  const base = {
    retentionDays,
    maxStoreMB,
    dryRun: request.dryRun === true,
    deletedSnapshots: 0,
    deletedCursors: 0,
  };
  const doomed = await withStore(home, ({ checkpoints }) =>
    checkpoints.planCleanup({
      retentionDays,
      now,
      maxBytes: maxStoreMB === null ? null : maxStoreMB * 1024 * 1024,
    }),
  );
  const snapshots = doomed.filter((d) => d.ref !== null);
  if (request.dryRun) {
    return {
      ...base,
      deletedCheckpoints: doomed.length,
      deletedSnapshots: snapshots.length,
      storeBytes: { before, after: before },
    };
  }
  if (doomed.length > 0 && request.confirm && !(await request.confirm(doomed.length))) {
    return { ...base, deletedCheckpoints: 0, storeBytes: { before, after: before } };
  }
  const deleted = await withStore(home, ({ checkpoints, maintenance }) => {
    const n = checkpoints.deleteCheckpoints(
      doomed.map((d) => d.id),
      now,
      retentionDays,
    );
    // Deleted rows leave free pages behind: under a size cap the file itself must shrink.
    if (n > 0 && maxStoreMB !== null && storeBytes(home) > maxStoreMB * 1024 * 1024)
      maintenance.compact();
    return n;
  });
  let deletedSnapshots = 0;
  for (const snapshot of snapshots) {
    // The ref lives in the repository the session worked in; gone directories took it with them.
    if (snapshot.cwd && existsSync(snapshot.cwd) && deleteSnapshot(snapshot.cwd, snapshot.id))
      deletedSnapshots++;
  }
  return {
    ...base,
    deletedCheckpoints: deleted,
    deletedSnapshots,
    deletedCursors: removeStaleCursors(home, now, retentionDays),
    storeBytes: { before, after: storeBytes(home) },
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
