/**
 * The first process of recover-database.test.ts's lock test (started compiled:
 * test/helpers/script-process.ts): `<SHIM_HOME>`. Takes the recovery lock, says `held`, works for
 * a second under it, writes `released` in the home and lets the lock go.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withRecoveryLock } from './recover-database.ts';

const home = process.argv[2]!;
withRecoveryLock(home, () => {
  process.stdout.write('held\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  writeFileSync(join(home, 'released'), 'x');
});
