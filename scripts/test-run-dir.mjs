// The run's own directory (scripts/test.mjs): the runner's reports, and the temp directory every
// test process gets as TMPDIR. The tests make thousands of homes, stores and copies a run
// (~2.5 GB for the whole suite here): they go when the run ends, or is interrupted, instead of
// piling up in the machine's /tmp run after run.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A new run directory under `parent`, with its `tmp/` (the test processes' TMPDIR). Others may
 * pass through both, not list them: a team test run as root starts its PostgreSQL server as the
 * `postgres` user, in a data directory of its own under `tmp/`.
 */
export function makeRunDir(parent) {
  const dir = mkdtempSync(join(parent, 'shim-test-run-'));
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  for (const level of [dir, tmp]) chmodSync(level, 0o711);
  return { dir, tmp };
}

/**
 * Removes a run directory whole. What a test left unwritable (a read-only home, a directory with
 * no permissions) is made writable first: a user who is not root could not remove it otherwise.
 * Returns null, or what could not be removed and why.
 */
export function removeRunDir(dir) {
  // A process a test left to finish on its own (the warm look's 5 idle seconds, a detached
  // checkpoint) may still write a file while the tree goes: ENOTEMPTY, tried again.
  const remove = () =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  try {
    remove();
    return null;
  } catch {
    // a directory it may not write into: opened up below, then once more
  }
  try {
    openUp(dir);
    remove();
    return null;
  } catch (error) {
    return `${dir}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Gives the owner every permission on `dir` and each directory under it (links not followed). */
function openUp(dir) {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (lstatSync(path).isDirectory()) openUp(path);
  }
}
