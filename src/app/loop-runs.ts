/**
 * Looking up loop runs for `shim loop list/status/logs`: which run an id (or "the latest here")
 * names, and what its status means now (liveness from loop-run-liveness.ts).
 * @module
 */
import { AppError } from '../core/errors.ts';
import type { LoopIterationRecord, LoopRunRecord } from '../store/ports/loops.ts';
import { getLoopRunLiveness } from './loop-run-liveness.ts';
import { withStore } from './open-store.ts';

/** A run as shown: its recorded status, or `orphaned` when no supervisor works on it any more. */
export type LoopRunView = LoopRunRecord & { liveStatus: string };

export function viewLoopRun(run: LoopRunRecord): LoopRunView {
  const liveness = getLoopRunLiveness(run);
  const liveStatus = liveness === 'orphaned' || liveness === 'unknown' ? 'orphaned' : run.status;
  return { ...run, liveStatus };
}

export async function listLoopRuns(
  home: string,
  options: { cwd: string | null; limit: number },
): Promise<LoopRunView[]> {
  return withStore(home, (store) =>
    store.loops
      .listRuns({ ...(options.cwd === null ? {} : { cwd: options.cwd }), limit: options.limit })
      .map(viewLoopRun),
  );
}

/** The run `id` (or a unique prefix) names; without one, the latest run here, else anywhere. */
export async function findLoopRun(
  home: string,
  id: string | undefined,
  cwd: string,
): Promise<{ run: LoopRunView; iterations: LoopIterationRecord[] }> {
  return withStore(home, (store) => {
    const repo = store.loops;
    const run = id ? repo.findRun(id) : (repo.latestRun({ cwd }) ?? repo.latestRun({}));
    if (!run) {
      throw new AppError(
        'USAGE',
        id ? `no loop run ${id}` : 'no loop runs yet',
        id ? 'see `shim loop list`' : 'start one with shim loop --goal "…"',
      );
    }
    return { run: viewLoopRun(run), iterations: repo.getIterations(run.runId) };
  });
}
