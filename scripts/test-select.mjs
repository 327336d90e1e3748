// `node scripts/test.mjs --changed [<ref>]`: the test files a change reaches through imports, for
// a change's first check in seconds rather than the inner loop's minutes.
//
// The change: what differs from <ref> (by default where this branch left main, or HEAD on main
// itself) committed or not, and the files git does not track yet. A test file is chosen when it
// changed itself or when a module it imports, directly or through others, changed: the import
// graph as esbuild bundles the test files (one build, written nowhere). A changed file no module
// imports (a fixture, a script a test spawns, a doc a test reads) chooses the test files whose own
// code (test/, *.test.ts) names it.
//
// What it does not follow: the built `shim` binary. A test that runs `bin/shim.cjs` is chosen by
// its own imports only, not by every module that binary carries (nearly all of src/): a change
// there is checked through the binary by `npm run test:quick` and `npm test`, which stay the
// proof.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { TEST_BUNDLE } from './compile-tests.mjs';

const git = (root, args) =>
  execFileSync('git', ['-C', root, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Where a change starts: the given ref, else where HEAD left main (HEAD on main). */
function baseOf(root, ref) {
  if (ref) return ref;
  try {
    const [base] = git(root, ['merge-base', 'HEAD', 'main']);
    return base ?? 'HEAD';
  } catch {
    return 'HEAD';
  }
}

/** The files (relative, `/`-separated) a change touches: committed since `ref`, uncommitted, new. */
export function changedFiles(root, ref) {
  const base = baseOf(root, ref);
  const files = new Set([
    ...git(root, ['diff', '--name-only', '--no-renames', base]),
    ...git(root, ['ls-files', '--others', '--exclude-standard']),
  ]);
  return [...files].sort();
}

/** Every test file's modules in the project (relative paths), by one esbuild build of them all. */
export async function importGraph(root, testFiles) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: testFiles,
    outdir: join(root, 'node_modules', '.cache', 'shim-tests', 'graph'),
    ...TEST_BUNDLE,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const byEntry = new Map();
  const inputsOf = (output, seen) => {
    if (seen.has(output)) return;
    seen.add(output);
    const meta = outputs[output];
    for (const imported of meta.imports) if (outputs[imported.path]) inputsOf(imported.path, seen);
  };
  for (const [output, meta] of Object.entries(outputs)) {
    if (!meta.entryPoint) continue;
    const seen = new Set();
    inputsOf(output, seen);
    const modules = new Set();
    for (const out of seen)
      for (const input of Object.keys(outputs[out].inputs)) modules.add(input);
    byEntry.set(meta.entryPoint, modules);
  }
  return byEntry;
}

/**
 * The test files among `testFiles` that `changed` reaches: changed themselves, importing a
 * changed module, or (for a changed file no test imports) naming it in one of their modules.
 */
export async function testsReached(root, testFiles, changed) {
  const graph = await importGraph(root, testFiles);
  const imported = new Set([...graph.values()].flatMap((modules) => [...modules]));
  const changedSet = new Set(changed);
  // A file no test imports, still there (a deleted one is gone from every graph too).
  const named = changed.filter((f) => !imported.has(f) && existsSync(join(root, f)));
  const sources = new Map();
  const text = (file) => {
    if (!sources.has(file)) {
      try {
        sources.set(file, readFileSync(join(root, file), 'utf8'));
      } catch {
        sources.set(file, '');
      }
    }
    return sources.get(file);
  };
  return testFiles.filter((test) => {
    if (changedSet.has(test)) return true;
    const modules = graph.get(test) ?? new Set([test]);
    for (const module of modules) if (changedSet.has(module)) return true;
    // Named by the tests' own code (test/, *.test.ts): what the code under test names is the
    // user's files (a package.json, a README), not the test's fixtures.
    const own = [...modules].filter((m) => m.startsWith('test/') || m.endsWith('.test.ts'));
    return named.some((file) => own.some((module) => text(module).includes(basename(file))));
  });
}

/** For the runner's message: the change, shortly. */
export function describeChange(root, changed) {
  if (!changed.length) return 'no changed file';
  const shown = changed.slice(0, 5).map((f) => relative(root, join(root, f)));
  return `${changed.length} changed file${changed.length === 1 ? '' : 's'} (${shown.join(', ')}${changed.length > 5 ? ', …' : ''})`;
}
