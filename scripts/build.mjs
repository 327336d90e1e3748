// Builds the bundles bin/shim.cjs loads:
// - the per-call bundles, one per file of src/entries/ (each file says when it runs and what it
//   must never carry): dist/hook-ask.cjs, hook-quick.cjs, hook.cjs, hook-heavy.cjs, statusline.cjs,
//   statusline-full.cjs, status.cjs, team-pull.cjs (CommonJS) and shim-mod.js (the mod, an ES module); their
//   metafiles go to dist/meta/ for src/entries/bundles.test.ts (forbidden imports, size budgets);
// - dist/commands.cjs: the command-line interface as one CommonJS bundle (through the code cache),
//   and dist/pg.cjs, the team store's driver it requires on first use;
// - dist/cli.js: the same, ESM, commands split into lazily loaded chunks, for a Node before 20.19;
// - dist/shim-mod.js: shim's Claude Code mod (the plugin's hooks module);
// - dist/ui/app.js and app.css: the dashboard's page (`shim ui`), for the browser, with uPlot.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/** Builds and keeps the metafile (what went into each output) as dist/meta/<name>.json. */
async function buildWithMeta(name, options) {
  const result = await build({ ...options, metafile: true });
  mkdirSync(new URL('../dist/meta', import.meta.url), { recursive: true });
  writeFileSync(
    new URL(`../dist/meta/${name}.json`, import.meta.url),
    JSON.stringify(result.metafile),
  );
  return result;
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Native addons find their binaries relative to their own package, and zod and the trackers'
  // clients are only loaded on rare paths: resolve them from node_modules at run time rather
  // than bundling them.
  external: ['@photostructure/sqlite', 'zod', '@octokit/*', '@linear/sdk'],
  legalComments: 'none',
  logLevel: 'warning',
};

const perCall = {
  ...common,
  outdir: 'dist',
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { 'globalThis.__SHIM_BUNDLE__': 'true' },
  // Less to parse on every tool call; names stay readable in stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
};

/**
 * dist/status.cjs and the agents' bundles carry no scanner of their own: their imports of
 * src/redact/redact.ts (from outside src/redact) go to src/entries/redactor-on-demand.ts, which
 * requires dist/redact.cjs the first time a text is redacted. Before, a status loaded the whole
 * scanner twice (its own bundle's and the agent's) and ran neither.
 */
const redactorOnDemand = {
  name: 'redactor-on-demand',
  setup(builder) {
    const onDemand = fileURLToPath(
      new URL('../src/entries/redactor-on-demand.ts', import.meta.url),
    );
    builder.onResolve({ filter: /\/redact\/redact\.ts$/ }, (args) =>
      args.importer.includes('/src/redact/') || args.importer === onDemand
        ? undefined
        : { path: onDemand },
    );
    builder.onResolve({ filter: /^\.\/redact\.cjs$/ }, () => ({
      path: './redact.cjs',
      external: true,
    }));
  },
};

/**
 * pg with Node's sockets, chosen without asking the runtime. pg's lib/stream.js asks at require
 * time whether it runs on Cloudflare Workers; on Node 20 (no global `navigator`) by building a
 * fetch `Response`, which loads Node's bundled undici: ~16 ms of CPU in every process that loads
 * pg (docs/team.md). shim runs on Node only (bin/shim.cjs), so the bundles take pg's own Node
 * stream functions directly. pg has no option for it: the probe runs as its connection module
 * loads. A pg whose stream.js no longer reads as expected fails the build here.
 */
const pgNodeStreams = {
  name: 'pg-node-streams',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const choice = 'const { getStream, getSecureStream } = getStreamFuncs()';
      if (source.split(choice).length !== 2 || !source.includes('function getNodejsStreamFuncs()'))
        throw new Error(
          `${args.path} changed: pg-node-streams (scripts/build.mjs) expects its choice made once as \`${choice}\``,
        );
      return {
        contents: source.replace(choice, choice.replace('getStreamFuncs', 'getNodejsStreamFuncs')),
        loader: 'js',
      };
    });
  },
};

/**
 * The commands bundle leaves pg to dist/pg.cjs (pg-node-streams applied), which bin/shim.cjs
 * serves through the code cache as a sibling bundle, required on the first use of the team store.
 */
const pgFromItsBundle = {
  name: 'pg-from-its-bundle',
  setup(builder) {
    builder.onResolve({ filter: /^pg$/ }, () => ({ path: './pg.cjs', external: true }));
  },
};

// bin/shim.cjs compiles the per-call bundles with V8's code cache, and Node 20 drops a script's
// dynamic import() support when it comes from a cache: their few lazy imports (built-ins) become
// require() calls instead.
const noDynamicImport = { 'dynamic-import': false };

await Promise.all([
  buildWithMeta('per-call', {
    ...perCall,
    // The light half runs on every tool call; the heavy half (store, checkpoints, restores) is
    // its own file, loaded by the light one only for the events that need it.
    entryPoints: {
      hook: 'src/entries/hook.ts',
      'hook-ask': 'src/entries/hook-ask.ts',
      'hook-quick': 'src/entries/hook-quick.ts',
      statusline: 'src/entries/statusline.ts',
      'statusline-full': 'src/entries/statusline-full.ts',
      // The redactor alone: for a log entry written by the quiet bundles (store/home/log.ts), and
      // the scanner of status.cjs and the agents' bundles (below).
      redact: 'src/entries/redact.ts',
      'gemini-before-model': 'src/entries/gemini-before-model.ts',
    },
    supported: noDynamicImport,
  }),
  buildWithMeta('status-agents', {
    ...perCall,
    entryPoints: {
      status: 'src/entries/status.ts',
      // Each agent's value, loaded by a per-call bundle that meets its session (agents/agent-bundles.ts).
      'agent-claude': 'src/entries/agent-claude.ts',
      'agent-codex': 'src/entries/agent-codex.ts',
      'agent-gemini': 'src/entries/agent-gemini.ts',
    },
    plugins: [redactorOnDemand],
    supported: noDynamicImport,
  }),
  buildWithMeta('hook-heavy', {
    ...perCall,
    entryPoints: { 'hook-heavy': 'src/entries/hook-heavy.ts' },
    // Loaded with the code cache too (through the launcher), so no dynamic import() either.
    external: ['@photostructure/sqlite', 'zod'],
    supported: noDynamicImport,
  }),
  // The pull a starting session waits for (`shim team pull --quiet`): plain pg, loaded with the
  // code cache through the launcher, no ES-module CLI.
  buildWithMeta('team-pull', {
    ...perCall,
    entryPoints: { 'team-pull': 'src/entries/team-pull.ts' },
    external: ['@photostructure/sqlite', 'zod', 'pg-native'],
    supported: noDynamicImport,
    plugins: [pgNodeStreams],
    // store/postgres/password-file.ts requires pgpass's helper relative to its own module.
    define: { ...perCall.define, 'import.meta.url': '__shimModuleUrl' },
    banner: { js: "const __shimModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
  // The team store's driver for the commands bundle (pgFromItsBundle): what require('pg') gives,
  // for the team commands and the replication worker (`shim sync`) on their first connection.
  buildWithMeta('pg', {
    ...perCall,
    entryPoints: { pg: createRequire(import.meta.url).resolve('pg') },
    external: ['pg-native'],
    supported: noDynamicImport,
    plugins: [pgNodeStreams],
  }),
  // shim's Claude Code mod: one self-contained ES module, readable (Claude Code checks its source
  // before it runs it: no imports, `$` spelled out at each call); its pure helpers are inlined.
  buildWithMeta('mod', {
    entryPoints: { 'shim-mod': 'src/entries/mod.ts' },
    outdir: 'dist',
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'node20',
    outExtension: { '.js': '.js' },
    legalComments: 'none',
    logLevel: 'warning',
  }),
  build({
    entryPoints: { app: 'src/ui/client/main.ts' },
    outdir: 'dist/ui',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  }),
  build({
    entryPoints: { app: 'src/ui/client/app.css' },
    outdir: 'dist/ui',
    bundle: true,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  }),
  // The commands as one CommonJS bundle, loaded through the code cache (src/entries/commands.ts):
  // what bin/shim.cjs runs for every command but the hooks' and status's plain forms.
  // Not a per-call bundle (no __SHIM_BUNDLE__): it runs as dist/cli.js does.
  buildWithMeta('commands', {
    ...common,
    entryPoints: { commands: 'src/entries/commands.ts' },
    outdir: 'dist',
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    minifyWhitespace: true,
    minifySyntax: true,
    // What only the long-lived or rare commands use (the dashboard's server, the MCP server and
    // its schema checker, the team store's query builder) stays in node_modules, and the team
    // store's driver in dist/pg.cjs, required when such a command first needs it: every byte
    // here is read, and every function a command compiled is deserialised from the code cache,
    // on every command.
    external: [
      ...common.external,
      'pg-*',
      'pgpass',
      'kysely',
      'hono',
      '@hono/*',
      '@modelcontextprotocol/sdk',
      '@modelcontextprotocol/sdk/*',
    ],
    supported: noDynamicImport,
    plugins: [pgFromItsBundle],
    // import.meta.url (package.json, the dashboard's assets, pgpass's helper) as this file's URL.
    define: { 'import.meta.url': '__shimModuleUrl' },
    banner: { js: "const __shimModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
  build({
    ...common,
    entryPoints: { cli: 'src/entries/cli.ts' },
    outdir: 'dist',
    splitting: true,
    format: 'esm',
    minifyWhitespace: true,
    minifySyntax: true,
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [pgNodeStreams],
    // commander is CommonJS and requires Node built-ins; ESM bundles need a real require for that.
    banner: {
      js: "import { createRequire as __shimCreateRequire } from 'node:module';\nconst require = __shimCreateRequire(import.meta.url);",
    },
  }),
]);
