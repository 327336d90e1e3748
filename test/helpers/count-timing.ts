/**
 * A SHIM_HOME whose hooks checkpoint by count (`checkpoints.timing: "count"`): for tests of the
 * interval checkpoint in sessions that write no file, which the default ("changes") skips.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeCountTiming(shimHome: string): void {
  mkdirSync(shimHome, { recursive: true });
  writeFileSync(
    join(shimHome, 'config.json'),
    `${JSON.stringify({ checkpoints: { timing: 'count' } })}\n`,
  );
}
