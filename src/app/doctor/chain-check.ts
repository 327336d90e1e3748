/**
 * Doctor check: the checkpoint chains (seed 003, "context chain integrity checks";
 * store/checkpoints/checkpoint-chain.ts). A checkpoint stored as a change of one that is gone, or
 * that no longer rebuilds to the state it was stored with, is read as an older one: its newest
 * work would not be restored.
 * @module
 */
import type { ChainBreak } from '../../store/ports/checkpoints.ts';
import { withStore } from '../open-store.ts';
import { check, type DoctorCheck } from './doctor-check.ts';

function describeBreak(b: ChainBreak): string {
  const read = b.fellBackTo ? `reads as ${b.fellBackTo.slice(0, 8)}` : 'unreadable';
  return `${b.checkpointId.slice(0, 8)} of session ${b.sessionId.slice(0, 8)} (${b.reason} at ${b.at.slice(0, 8)}; ${read})`;
}

export async function chainCheck(home: string): Promise<DoctorCheck> {
  try {
    const report = await withStore(home, (store) => store.checkpoints.checkChains());
    const stored = `${report.whole} whole, ${report.deltas} stored as changes`;
    if (report.broken.length === 0)
      return check(
        'checkpoint-chains',
        'checkpoint chains',
        'ok',
        false,
        `${stored}; ${report.verified} recent session${report.verified === 1 ? '' : 's'} rebuilt and checked`,
      );
    return check(
      'checkpoint-chains',
      'checkpoint chains',
      'warn',
      false,
      `${report.broken.length} broken: ${report.broken.slice(0, 3).map(describeBreak).join('; ')} (${stored})`,
      'shim show <id> names what each reads as instead; `shim forget <id>` removes a checkpoint that cannot be rebuilt, and new checkpoints of the session chain onto the newest that reads',
    );
  } catch (error) {
    return check(
      'checkpoint-chains',
      'checkpoint chains',
      'warn',
      false,
      `could not be checked: ${(error as Error).message}`,
    );
  }
}
