/**
 * Doctor check: sessions whose newest checkpoints failed (store/cache/checkpoint-failures.ts). A
 * session that cannot be checkpointed loses its work on the next compaction or crash, so a failure
 * of the last day makes shim unhealthy until a checkpoint of it is stored again; older ones are
 * listed, not unhealthy, until `shim doctor --clear-failures` clears them.
 * @module
 */
import { join } from 'node:path';
import {
  describeCheckpointFailure,
  readCheckpointFailures,
} from '../../store/cache/checkpoint-failures.ts';
import { countFailedPendingCheckpoints } from '../../store/checkpoints/pending-checkpoints.ts';
import { check, type DoctorCheck } from './doctor-check.ts';

/** Failures older than this are of sessions long gone: listed until cleared, never unhealthy. */
const CURRENT_MS = 24 * 60 * 60 * 1000;

export function checkpointFailureCheck(home: string, now: Date): DoctorCheck {
  const failures = readCheckpointFailures(home);
  const setAside = countFailedPendingCheckpoints(home);
  if (failures.length === 0 && setAside > 0)
    return check(
      'checkpoint-failures',
      'checkpoint failures',
      'warn',
      true,
      `${setAside} checkpoint${setAside === 1 ? '' : 's'} promised before a risky command could not be built (${join(home, 'pending', 'failed')}); ${setAside === 1 ? 'its' : 'their'} git snapshots are kept under refs/shim/snapshots/`,
      'move the notes back into SHIM_HOME/pending/ to try again: the next shim command builds them; the log says why they failed',
    );
  if (failures.length === 0)
    return check('checkpoint-failures', 'checkpoint failures', 'ok', true, 'none');
  const current = failures.filter((f) => now.getTime() - Date.parse(f.at) < CURRENT_MS);
  const shown = (current.length > 0 ? current : failures)
    .slice(0, 3)
    .map(describeCheckpointFailure)
    .join('; ');
  const sessions = (n: number) => `${n} session${n === 1 ? '' : 's'}`;
  if (current.length === 0)
    return check(
      'checkpoint-failures',
      'checkpoint failures',
      'warn',
      false,
      `${sessions(failures.length)} with checkpoints that failed over a day ago, none since: ${shown}`,
      '`shim doctor --clear-failures` clears this list (a session clears its own when its next checkpoint is stored)',
    );
  const past = failures.length - current.length;
  return check(
    'checkpoint-failures',
    'checkpoint failures',
    'fail',
    true,
    `${sessions(current.length)} with failed checkpoints today: ${shown}${past > 0 ? ` (and ${sessions(past)} over a day ago)` : ''}`,
    'run `shim checkpoint --session <id>` (or --transcript <file>) to retry and see the error; the log has details. A session that is gone or was never one: `shim doctor --clear-failures`',
  );
}
