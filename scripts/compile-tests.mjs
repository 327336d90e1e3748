// Compiles the test files a run selects once, with esbuild (the compiler tsx itself uses), so
// that each test file's process starts with plain `node`: under `--import tsx` every one of them
// paid tsx's loader thread and a resolve/load round trip per imported module, ~0.3–0.6 s of CPU
// before its first test (a few hundred files a run).
//
// One build of all the files at once: each test file is an ES module entry, what they share is
// split into chunks, packages stay outside (they load from node_modules as they do under tsx).
// A module keeps its own place: `import.meta.dirname`, `.filename` and `.url` are replaced by
// its source file's, so paths a test or the code builds from them (fixtures, dist/, the
// package root, a script to spawn) are the same as under tsx. Names are kept (`keepNames`), so
// a class or function in a bundle has the name it has in its source, and source maps send a
// stack trace back to the .ts line.
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
// Inside the project, so that the bundles' bare imports resolve to its node_modules.
const CACHE = join(ROOT, 'node_modules', '.cache', 'shim-tests');
// A run's compiled file, or the link to it that gives its place in the order (`ordered()`).
const RUN_DIR =
  /node_modules[\\/]\.cache[\\/]shim-tests[\\/]run-[^\\/]+[\\/](?:_order[\\/]\d+[\\/])?/;

/** The source file (relative to the project, `/`-separated) a compiled test file came from. */
export function sourceOf(path) {
  const match = RUN_DIR.exec(path);
  if (!match) return path;
  return path.slice(match.index + match[0].length).replace(/\.mjs$/, '.ts');
}

/**
 * A test runner event as it would be for the source file: the compiled file's path (a file's
 * own name, where its tests are) becomes its source's, a line and column the source's (through
 * the source map).
 */
export function eventOfSource(event) {
  const data = event.data;
  if (!data || typeof data.file !== 'string' || !RUN_DIR.test(data.file)) return event;
  const mapped = { ...data, file: join(ROOT, sourceOf(data.file)) };
  if (data.name === data.file) mapped.name = mapped.file;
  if (typeof data.line === 'number' && typeof data.column === 'number') {
    const at = sourceLine(data.file, data.line, data.column);
    mapped.file = at?.file ?? mapped.file;
    mapped.line = at?.line;
    mapped.column = at?.column;
  }
  return { ...event, data: mapped };
}

/** Where a compiled file's line and column (1-based) come from, by its linked source map. */
function sourceLine(file, line, column) {
  try {
    // Through the link that ordered it, to the file its map sits beside.
    const path = realpathSync(isAbsolute(file) ? file : join(ROOT, file));
    const map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    const entry = map.findEntry(line - 1, column - 1);
    if (!entry?.originalSource) return null;
    const source = entry.originalSource.startsWith('file:')
      ? fileURLToPath(entry.originalSource)
      : resolve(dirname(path), entry.originalSource);
    return { file: source, line: entry.originalLine + 1, column: entry.originalColumn + 1 };
  } catch {
    return null;
  }
}

/** Every module keeps its source's place: import.meta's paths are written in as literals. */
const ownPlace = {
  name: 'own-place',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const loader = args.path.endsWith('ts') ? 'ts' : 'js';
      // (A pattern, not the words themselves: this file compiles its own source in its test.)
      const contents = readFileSync(args.path, 'utf8').replace(META, (_, what) =>
        JSON.stringify(
          what === 'dirname'
            ? dirname(args.path)
            : what === 'filename'
              ? args.path
              : pathToFileURL(args.path).href,
        ),
      );
      return { contents, loader };
    });
  },
};
const META = /\bimport\.meta\.(dirname|filename|url)\b/g;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** How the test files are bundled: ES modules, shared code in chunks, packages left outside. */
export const TEST_BUNDLE = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
};

const SHARED = 'shim-test-shared';

/**
 * A process's entry for test files that share it (scripts/test-share.mjs): each file inside a
 * suite named by its path, required (esbuild runs a required module where it is required, so
 * the file's tests, suites and hooks belong to that suite). Each suite writes its CPU time
 * (user + system of the process and of the children it waited for, from its first hook to its
 * last) to SHIM_TEST_CPU_LOG, as a file of its own process does at exit.
 */
function sharedEntry(files) {
  const suites = files.map(
    (file) =>
      `describe(${JSON.stringify(file)}, () => {\n  let started;\n  before(() => (started = cpuMs()));\n  require(${JSON.stringify(resolve(ROOT, file))});\n  after(() => logCpu(${JSON.stringify(file)}, started));\n});`,
  );
  return [
    `import { after, before, describe } from 'node:test';`,
    `import { appendFileSync, readFileSync } from 'node:fs';`,
    `globalThis[Symbol.for('shim.test.sharedFiles')] = ${JSON.stringify(files)};`,
    `const cpuMs = () => {`,
    `  try {`,
    `    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');`,
    `    return [14, 15, 16, 17].reduce((sum, field) => sum + Number(fields[field - 3]), 0) * 10;`,
    `  } catch {`,
    `    return null;`,
    `  }`,
    `};`,
    `const logCpu = (file, started) => {`,
    `  const now = cpuMs();`,
    `  if (process.env.SHIM_TEST_CPU_LOG && now !== null && started !== null)`,
    `    appendFileSync(process.env.SHIM_TEST_CPU_LOG, \`\${file}\\t\${now - started}\\n\`);`,
    `};`,
    ...suites,
  ].join('\n');
}

/** Serves `shim-test-shared:<name>` entries: the processes' entries of shared test files. */
const sharedEntries = (shared) => ({
  name: 'shared-entries',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${SHARED}:`) }, (args) => ({
      path: args.path.slice(SHARED.length + 1),
      namespace: SHARED,
    }));
    build.onLoad({ filter: /.*/, namespace: SHARED }, (args) => ({
      contents: sharedEntry(shared.get(args.path)),
      resolveDir: ROOT,
      loader: 'js',
    }));
  },
});

/**
 * Compiles `files` (test files relative to the project) and `preloads` into a directory of this
 * run's own; returns it with each source's compiled path and a `remove()` for the run's end.
 * `shared` (name → files) adds one entry per shared process (`compiledShared(name)`) running
 * those files, each in a suite of its own (scripts/test-share.mjs).
 */
export async function compileTests(files, preloads = [], shared = new Map()) {
  // Loaded only by the runner that compiles (its reporters import this file too).
  const { build } = await import('esbuild');
  mkdirSync(CACHE, { recursive: true });
  // An interrupted run's directory goes when its runner is gone.
  for (const name of readdirSync(CACHE)) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (pid && !alive(pid)) rmSync(join(CACHE, name), { recursive: true, force: true });
  }
  const outdir = join(CACHE, `run-${process.pid}`);
  rmSync(outdir, { recursive: true, force: true });
  const options = {
    absWorkingDir: ROOT,
    outExtension: { '.js': '.mjs' },
    ...TEST_BUNDLE,
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'error',
    // Code that starts `shim` as process.argv[1] (run-in-background.ts, pull-at-start.ts) would
    // start the test file itself, which runs its tests again and starts another: under tsx that
    // process fails to load a .ts file; compiled, it must fail as surely. A test file's process
    // has no arguments of its own.
    banner: {
      js: `if (process.argv.length > 2) { process.stderr.write('a compiled test file was started with arguments (as shim?): refused\\n'); process.exit(1); }`,
    },
    // Chunks in a folder of their own; the entries mirror the sources' tree.
    chunkNames: '_chunks/[name]-[hash]',
  };
  const sharedFiles = new Set([...shared.values()].flat());
  const alone = files.filter((file) => !sharedFiles.has(file));
  await build({
    ...options,
    entryPoints: [...alone, ...preloads],
    outbase: ROOT,
    outdir,
    plugins: [ownPlace],
  });
  // The shared processes' entries: a build of their own (a module required somewhere is wrapped
  // in a function everywhere in its build), into a folder of their own.
  if (shared.size)
    await build({
      ...options,
      entryPoints: Object.fromEntries(
        [...shared.keys()].map((name) => [name, `${SHARED}:${name}`]),
      ),
      outdir: join(outdir, '_shared'),
      plugins: [ownPlace, sharedEntries(shared)],
    });
  const compiled = (file) =>
    join(outdir, relative(ROOT, resolve(ROOT, file))).replace(/\.ts$/, '.mjs');
  let links = 0;
  return {
    outdir,
    compiled,
    compiledShared: (name) => join(outdir, '_shared', `${name}.mjs`),
    /**
     * Compiled entries (paths under `outdir`) to hand Node's test runner in this order: it sorts
     * the paths it is given and starts them in that order, so each goes through a link whose
     * folder is its rank (`_order/0001/test/cli.test.mjs`). The process runs the file linked to,
     * which names its source as before (`sourceOf`).
     */
    ordered: (entries) =>
      entries.map((entry) => {
        const link = join(
          outdir,
          '_order',
          String(++links).padStart(4, '0'),
          relative(outdir, entry),
        );
        mkdirSync(dirname(link), { recursive: true });
        symlinkSync(resolve(entry), link);
        return link;
      }),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}
