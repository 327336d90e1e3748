/**
 * Is a loop run being supervised right now? One answer for every caller: `shim loop list/status`
 * (what to show), `--resume` (whether it may take the run over) and clean-up (what it may touch).
 * @module
 */
import { isProcessAlive, looksLikeShimProcess } from '../capture/process-tree.ts';
import { ACTIVE_LOOP_STATUSES } from '../store/loop/loop-rows.ts';
import type { LoopRunRecord } from '../store/ports/loops.ts';

/**
 * - `supervised`: running or waiting, and its supervisor process is alive (not a reused pid).
 * - `orphaned`: running or waiting, but its supervisor is gone: `shim loop --resume` picks it up.
 * - `unknown`: running or waiting with no supervisor pid on record (written by an interrupted
 *   update): it may be resumed, and clean-up leaves it alone since nothing proves it dead.
 * - `ended`: completed, stopped, failed or interrupted.
 */
export type LoopRunLiveness = 'supervised' | 'orphaned' | 'unknown' | 'ended';

export function getLoopRunLiveness(
  run: Pick<LoopRunRecord, 'status' | 'supervisorPid'>,
  self: number = process.pid,
): LoopRunLiveness {
  if (!ACTIVE_LOOP_STATUSES.includes(run.status)) return 'ended';
  const pid = run.supervisorPid;
  if (pid === null) return 'unknown';
  if (pid === self) return 'supervised';
  return isProcessAlive(pid) && looksLikeShimProcess(pid) ? 'supervised' : 'orphaned';
}
