/**
 * A TypeScript script a test starts as a process of its own (a checkpoint writer killed with
 * SIGKILL, a replication worker, a second opener of the database): compiled once per test process
 * by esbuild (the compiler tsx uses) into one ES module beside node_modules, its packages in it
 * (but for the SQLite addon and pg's native binding, which load from node_modules), and started
 * with plain `node`.
 * Through `node --import tsx` each such process paid tsx's loader thread, ~0.4 s of CPU before
 * its first line: the store's crash tests start more than a hundred.
 *
 *   spawn(process.execPath, [compiledScript(join(import.meta.dirname, 'worker.ts')), ...args])
 */
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = join(import.meta.dirname, '..', '..');
// Inside the project, so that the bundle's bare imports resolve to its node_modules.
const CACHE = join(ROOT, 'node_modules', '.cache', 'shim-test-scripts');

// Packages are bundled too: resolving and loading their hundreds of modules (kysely, pg) was
// half of a replication worker's start (0.65 → 0.29 s of CPU; test/team/load starts 58).
const NOT_BUNDLED = ['@photostructure/sqlite', 'pg-native'];

const compiled = new Map<string, string>();

/** The path of the script `entry` compiled to one .mjs file (built on first use). */
export function compiledScript(entry: string): string {
  const known = compiled.get(entry);
  if (known) return known;
  mkdirSync(CACHE, { recursive: true });
  const name = `${basename(entry, '.ts')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const outfile = join(CACHE, `${name}.mjs`);
  buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: NOT_BUNDLED,
    // The packages' CommonJS modules require Node's own modules: give the bundle a require().
    // (Written in two pieces: the test runner's compiler replaces this file's import.meta.)
    banner: {
      js: `import { createRequire as __shimRequire } from 'node:module'; const require = __shimRequire(${'import.meta'}.url);`,
    },
    logLevel: 'error',
  });
  // Gone with the test process that built it (other processes build their own).
  process.once('exit', () => rmSync(outfile, { force: true }));
  compiled.set(entry, outfile);
  return outfile;
}
