/**
 * Doctor check: sessions whose newest checkpoints failed (store/cache/checkpoint-failures.ts). A
 * session that cannot be checkpointed loses its work on the next compaction or crash, so a failure
 * of the last day makes shim unhealthy until a checkpoint of it is stored again; older ones are
 * listed, not unhealthy, until `shim doctor --clear-failures` clears them. So with the notes of
 * risky commands' checkpoints set aside after their last attempt (pending/failed/).
 * @module
 */
import { join } from 'node:path';
import {
  describeCheckpointFailure,
  readCheckpointFailures,
} from '../../store/cache/checkpoint-failures.ts';
import { listFailedPendingCheckpoints } from '../../store/checkpoints/pending-checkpoints.ts';
import { check, type DoctorCheck } from './doctor-check.ts';

/** Failures older than this are of sessions long gone: listed until cleared, never unhealthy. */
const CURRENT_MS = 24 * 60 * 60 * 1000;

/** `path` as one word of a POSIX shell, whatever it holds. */
const shellWord = (path: string) => `'${path.replaceAll("'", `'\\''`)}'`;

type Part = { status: 'warn' | 'fail'; essential: boolean; detail: string; fix: string };

const sessions = (n: number) => `${n} session${n === 1 ? '' : 's'}`;

/** The sessions whose checkpoints failed: today's make shim unhealthy, older ones are listed. */
function failuresPart(home: string, now: Date): Part | null {
  const failures = readCheckpointFailures(home);
  if (failures.length === 0) return null;
  const current = failures.filter((f) => now.getTime() - Date.parse(f.at) < CURRENT_MS);
  const shown = (current.length > 0 ? current : failures)
    .slice(0, 3)
    .map(describeCheckpointFailure)
    .join('; ');
  if (current.length === 0)
    return {
      status: 'warn',
      essential: false,
      detail: `${sessions(failures.length)} with checkpoints that failed over a day ago, none since: ${shown}`,
      fix: '`shim doctor --clear-failures` clears this list (a session clears its own when its next checkpoint is stored)',
    };
  const past = failures.length - current.length;
  return {
    status: 'fail',
    essential: true,
    detail: `${sessions(current.length)} with failed checkpoints today: ${shown}${past > 0 ? ` (and ${sessions(past)} over a day ago)` : ''}`,
    fix: 'run `shim checkpoint --session <id>` (or --transcript <file>) to retry and see the error; the log has details. A session that is gone or was never one: `shim doctor --clear-failures`',
  };
}

/**
 * Risky commands' checkpoints set aside after their last attempt: the exact command that tries
 * them again, and the one that lets them go. Set aside today: a command ran unprotected just now.
 */
function setAsidePart(home: string, now: Date): Part | null {
  const aside = listFailedPendingCheckpoints(home);
  const n = aside.length;
  if (n === 0) return null;
  const today = aside.filter((a) => now.getTime() - a.setAsideAt < CURRENT_MS).length;
  const dir = join(home, 'pending');
  return {
    status: 'warn',
    essential: today > 0,
    detail: `${n} checkpoint${n === 1 ? '' : 's'} promised before a risky command could not be built${today === 0 ? ', set aside over a day ago' : ''} (${join(dir, 'failed')}); ${n === 1 ? 'its' : 'their'} git snapshot${n === 1 ? ' is' : 's are'} kept under refs/shim/snapshots/`,
    fix: `to try again: mv ${shellWord(join(dir, 'failed'))}/*.json ${shellWord(dir)}/ — the next shim command builds them (the log says why they failed); to let them go: \`shim doctor --clear-failures\` (the snapshots stay)`,
  };
}

export function checkpointFailureCheck(home: string, now: Date): DoctorCheck {
  const parts = [failuresPart(home, now), setAsidePart(home, now)].filter((p) => p !== null);
  if (parts.length === 0)
    return check('checkpoint-failures', 'checkpoint failures', 'ok', true, 'none');
  return check(
    'checkpoint-failures',
    'checkpoint failures',
    parts.some((p) => p.status === 'fail') ? 'fail' : 'warn',
    parts.some((p) => p.essential),
    parts.map((p) => p.detail).join('; '),
    parts.map((p) => p.fix).join('. '),
  );
}
