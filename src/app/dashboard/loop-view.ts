/**
 * Loop runs as the dashboard shows them: the same records as `shim loop list/status/logs`, and
 * a run's iterations with the context each reached, its restarts and costs.
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { LoopIterationRecord } from '../../store/ports/loops.ts';
import { readRunEvents } from '../../store/loop/loop-event-reader.ts';
import type { LoopEvent } from '../../store/loop/loop-event-log.ts';
import { viewLoopRun, type LoopRunView } from '../loop-runs.ts';
import { withStore } from '../open-store.ts';

export type LoopRunDetail = {
  run: LoopRunView;
  iterations: LoopIterationRecord[];
  events: LoopEvent[];
};

const RUN_ID = /^[A-Za-z0-9_-]{1,128}$/;

export async function listDashboardLoops(home: string, limit = 200): Promise<LoopRunView[]> {
  return withStore(home, (store) => store.loops.listRuns({ limit }).map(viewLoopRun));
}

export async function viewLoopRunDetail(home: string, runId: string): Promise<LoopRunDetail> {
  if (!RUN_ID.test(runId)) throw new AppError('USAGE', 'not a loop run id', 'see `shim loop list`');
  const found = await withStore(home, (store) => {
    const run = store.loops.findRun(runId);
    return run ? { run: viewLoopRun(run), iterations: store.loops.getIterations(run.runId) } : null;
  });
  if (!found) throw new AppError('USAGE', `no loop run ${runId}`, 'see `shim loop list`');
  return { ...found, events: readRunEvents(home, found.run.runId) };
}

/** The run's events after `afterSeq` (the live view asks for what it has not seen). */
export function readLoopEventsAfter(home: string, runId: string, afterSeq: number): LoopEvent[] {
  if (!RUN_ID.test(runId)) return [];
  return readRunEvents(home, runId, { afterSeq });
}
