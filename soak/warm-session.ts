/** The end of a soak's warm-look session (test/helpers/warm-look.ts): nothing of it may stay. */
import { rmSync } from 'node:fs';
import { endWarmLooksUnder, processesUnder } from '../test/helpers/processes.ts';
import { isWarmLookProcess, type Session } from '../test/helpers/warm-look.ts';

/**
 * Ends the session's warm look (serving, or one a last call started that is not serving yet);
 * more than one for its SHIM_HOME is a failure. Then kills and names (as a failure) anything
 * else still running under it but `spare` (a process the soak started itself), and removes its
 * directory.
 */
export async function endSession(
  s: Session,
  fail: (what: string) => void,
  spare: readonly number[] = [],
): Promise<void> {
  const warm = processesUnder(s.dir, true).filter(isWarmLookProcess);
  if (warm.length > 1) fail(`${warm.length} warm looks for one SHIM_HOME: ${warm.join(', ')}`);
  await endWarmLooksUnder(s.dir).catch((error: Error) => fail(error.message));
  const left = processesUnder(s.dir, true).filter((pid) => !spare.includes(pid));
  if (left.length > 0) {
    fail(`left running: ${left.join(', ')}`);
    for (const pid of left) process.kill(pid, 'SIGKILL');
  }
  rmSync(s.dir, { recursive: true, force: true });
}
