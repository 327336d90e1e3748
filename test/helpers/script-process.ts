/**
 * A TypeScript script a test starts as a process of its own (a checkpoint writer killed with
 * SIGKILL, a replication worker, a second opener of the database): compiled once per test process
 * by esbuild (the compiler tsx uses) into one CommonJS bundle beside node_modules, its packages in
 * it (but for the SQLite addon and pg's native binding, which load from node_modules), and started
 * with plain `node` through V8's code cache (script-start.cjs).
 * Through `node --import tsx` each such process paid tsx's loader thread, ~0.4 s of CPU before
 * its first line: the store's crash tests start more than a hundred. As an ES module it paid
 * Node's ES-module loader, and compiled again at every start the functions its run needs.
 *
 *   spawn(process.execPath, [compiledScript(join(import.meta.dirname, 'worker.ts')), ...args])
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = join(import.meta.dirname, '..', '..');
// Inside the project, so that the bundle's bare imports resolve to its node_modules.
const CACHE = join(ROOT, 'node_modules', '.cache', 'shim-test-scripts');
// The scripts' V8 code caches, shared by the test processes of a run (and the runs after it):
// each file's name holds its bundle's content hash, so another build's is never read.
const CODE_CACHE = join(CACHE, 'v8');
const START = join(import.meta.dirname, 'script-start.cjs');

// Packages are bundled too: resolving and loading their hundreds of modules (kysely, pg) was
// half of a replication worker's start (0.65 → 0.29 s of CPU; test/team/load starts 58).
const NOT_BUNDLED = ['@photostructure/sqlite', 'pg-native'];

const META = ['import', 'meta'].join('.');

const compiled = new Map<string, string>();

/** The path of the script `entry` compiled, to start with node (built on first use). */
export function compiledScript(entry: string): string {
  const known = compiled.get(entry);
  if (known) return known;
  mkdirSync(CODE_CACHE, { recursive: true });
  const script = basename(entry, '.ts');
  const name = `${script}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const bundle = join(CACHE, `${name}.cjs`);
  const starter = join(CACHE, `${name}.start.cjs`);
  buildSync({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: NOT_BUNDLED,
    // import() as require(), as in shim's own bundles: a script compiled through the code cache
    // has no dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
    supported: { 'dynamic-import': false },
    // import.meta as the bundle's own, as in an ES module (package.json's place, pgpass's
    // helper). Written in pieces: the test runner's compiler replaces this file's import.meta.
    define: {
      [`${META}.url`]: '__scriptUrl',
      [`${META}.dirname`]: '__dirname',
      [`${META}.filename`]: '__filename',
    },
    banner: { js: "const __scriptUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'error',
  });
  const hash = createHash('sha256').update(readFileSync(bundle)).digest('hex').slice(0, 16);
  const cacheBase = join(CODE_CACHE, `${script}-${hash}`);
  writeFileSync(
    starter,
    `require(${JSON.stringify(START)})(${JSON.stringify(bundle)}, ${JSON.stringify(cacheBase)});\n`,
  );
  forgetOtherBuilds(script, hash);
  // Gone with the test process that built it (other processes build their own).
  process.once('exit', () => {
    rmSync(bundle, { force: true });
    rmSync(starter, { force: true });
  });
  compiled.set(entry, starter);
  return starter;
}

/** Earlier builds' caches of the script: they would only pile up. */
function forgetOtherBuilds(script: string, hash: string): void {
  const own = new RegExp(`^${script}-[0-9a-f]{16}-`);
  for (const file of readdirSync(CODE_CACHE)) {
    if (own.test(file) && !file.startsWith(`${script}-${hash}-`))
      rmSync(join(CODE_CACHE, file), { force: true });
  }
}
