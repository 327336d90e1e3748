/**
 * Real small file systems for storage-failure tests: a tmpfs of a given size (filled to make a
 * full disk, remounted read-only). Mounting needs the right to; where this process lacks it,
 * `mountedHome` returns null and the test skips. Every mount is lazily unmounted after the file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { makeTempDir } from './fixtures.ts';

const mounts: string[] = [];
// Registered as the test file imports this (its top level), not inside a suite: a suite's own
// `after` would unmount the mounts of the suites after it before their tests run.
after(() => {
  for (const mounted of mounts) spawnSync('umount', ['-l', mounted]);
});

/** An empty folder on a fresh tmpfs of `size` (e.g. '1m'), or null where none can be mounted. */
export function mountedHome(size: string): string | null {
  const dir = join(makeTempDir('shim-mount-'), 'home');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  mounts.push(dir);
  return dir;
}

/** Fills what is left of the file system holding `dir`. */
export function fillDisk(dir: string): void {
  spawnSync('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
}
