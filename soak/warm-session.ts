/** The end of a soak's warm-look session (test/helpers/warm-look.ts): nothing of it may stay. */
import { rmSync } from 'node:fs';
import { processesUnder } from '../test/helpers/processes.ts';
import { stop, type Session } from '../test/helpers/warm-look.ts';

/**
 * Stops the session's warm look, kills and names (as a failure) anything else still running
 * under it but `spare` (a process the soak started itself), and removes its directory.
 */
export async function endSession(
  s: Session,
  fail: (what: string) => void,
  spare: readonly number[] = [],
): Promise<void> {
  await stop(s).catch(() => undefined);
  const left = processesUnder(s.dir, true).filter((pid) => !spare.includes(pid));
  if (left.length > 0) {
    fail(`left running: ${left.join(', ')}`);
    for (const pid of left) process.kill(pid, 'SIGKILL');
  }
  rmSync(s.dir, { recursive: true, force: true });
}
