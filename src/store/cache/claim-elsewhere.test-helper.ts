/**
 * The other process of hook-memory.test.ts (started compiled: test/helpers/script-process.ts):
 * `<SHIM_HOME> <key> <settle>`. Claims `key` of session `s` (exit 3 when another holds it), then
 * settles it (`settled`), leaves it (`unsettled`), or settles it with its answer inside a write
 * buffer, the warm look's, that it flushes (`with-answer, flushed`) or not (`with-answer, killed
 * before flushing`) before it exits.
 */
import { WriteBuffer } from '../home/write-buffer.ts';
import { claimUntilDone, settleClaim, settleClaimWithAnswer } from './hook-memory.ts';

const [home, key, settle] = process.argv.slice(2) as [string, string, string];

async function main(): Promise<void> {
  if (!claimUntilDone(home, 's', key)) process.exit(3);
  if (settle === 'settled') settleClaim(home, 's', key);
  if (!settle.startsWith('with-answer')) return;
  const buffer = await WriteBuffer.create();
  buffer.hold(() => settleClaimWithAnswer(home, 's', key));
  if (settle === 'with-answer, flushed') buffer.flush();
}

void main();
