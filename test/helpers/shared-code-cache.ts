/**
 * V8's code caches (SHIM_HOME/cache/v8, written by bin/shim.cjs) handed from a test file's homes
 * to its next ones. The first command in a fresh SHIM_HOME compiles the bundle it runs and writes
 * its cache at exit — 30–70 ms more CPU than the same command in a home that has one — and a test
 * file makes dozens of homes. A user's home holds them from its first call on: a test
 * that is not about the cache runs in that state. Tests about the cache itself (which bundles a
 * command loads, what it writes there) keep plain homes: only a home registered here shares.
 *
 * A cache is copied in, never linked: a test that damages the files under a home must not reach
 * another home's.
 */
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The homes that share, and each cache file this process has seen: its name, its copy. */
const sharing = new Set<string>();
const kept = new Map<string, string>();
let keptDir: string | null = null;

/**
 * A new temp directory for a SHIM_HOME that shares the code caches of this process's homes: it
 * gets them before its first command.
 */
export function makeWarmHome(prefix = 'shim-test-'): string {
  return withSharedCodeCache(mkdtempSync(join(tmpdir(), prefix)));
}

/** Registers `home` (made or not yet) to share the code caches of this process's homes. */
export function withSharedCodeCache(home: string): string {
  sharing.add(home);
  return home;
}

/**
 * Before and after a `shim` command in `home`: keeps a copy of each cache the home holds that
 * this process has not seen, and gives the home each one it lacks. A home that is not registered,
 * not a directory, or not writable is left as it is.
 */
export function shareCodeCache(home: string): void {
  if (!sharing.has(home) || !isDirectory(home)) return;
  const dir = join(home, 'cache', 'v8');
  const held = cacheFiles(dir);
  for (const name of held) if (!kept.has(name)) keep(join(dir, name), name);
  const missing = [...kept.keys()].filter((name) => !held.includes(name));
  if (missing.length === 0) return;
  try {
    for (const level of [join(home, 'cache'), dir]) {
      if (!isDirectory(level)) mkdirSync(level, { mode: 0o700 });
    }
    for (const name of missing) {
      const temp = join(dir, `${name}.${process.pid}.seed`);
      try {
        copyFileSync(kept.get(name)!, temp);
        renameSync(temp, join(dir, name));
      } finally {
        rmSync(temp, { force: true });
      }
    }
  } catch {
    // A home the test made unusable (read-only, full, a file in the way): the command compiles.
  }
}

/** Runs one `shim` command in `home` (spawned by the caller), sharing the caches around it. */
export function sharingCodeCache<T>(home: string, run: () => T): T {
  shareCodeCache(home);
  try {
    return run();
  } finally {
    shareCodeCache(home);
  }
}

function cacheFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.bin'));
  } catch {
    return [];
  }
}

function keep(file: string, name: string): void {
  try {
    if (keptDir === null) {
      const made = mkdtempSync(join(tmpdir(), 'shim-code-cache-'));
      process.on('exit', () => rmSync(made, { recursive: true, force: true }));
      keptDir = made;
    }
    if (lstatSync(file).isSymbolicLink()) return;
    copyFileSync(file, join(keptDir, name));
    kept.set(name, join(keptDir, name));
  } catch {
    // gone meanwhile (an older build's, removed by the next command): the next home compiles
  }
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
