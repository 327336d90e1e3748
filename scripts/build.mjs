// Builds the bundles bin/shim.cjs loads:
// - dist/hook.cjs, dist/hook-quick.cjs (PostToolUse's answers without a look), dist/statusline.cjs
//   and dist/status.cjs: one CommonJS file each, for the per-call hot paths and `shim status`;
// - dist/cli.js: the command-line interface, ESM, commands split into lazily loaded chunks;
// - dist/shim-mod.js: shim's Claude Code mod (the plugin's hooks module);
// - dist/ui/app.js and app.css: the dashboard's page (`shim ui`), for the browser, with uPlot.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Native addons find their binaries relative to their own package, and zod/secretlint are only
  // loaded on rare paths: resolve them from node_modules at run time rather than bundling them.
  external: ['@photostructure/sqlite', '@secretlint/*', 'zod', '@octokit/*', '@linear/sdk'],
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

await Promise.all([
  build({
    ...perCall,
    // The light half runs on every tool call; the heavy half (store, checkpoints, restores) is
    // its own file, loaded by the light one only for the events that need it.
    entryPoints: {
      hook: 'src/hook/run.ts',
      'hook-quick': 'src/hook/quick-run.ts',
      // Gemini CLI's hooks: their own entry, so Claude Code's per-call bundles carry none of it.
      'hook-gemini': 'src/hook/gemini-run.ts',
      statusline: 'src/statusline/run.ts',
      'statusline-full': 'src/statusline/full-basis.ts',
      status: 'src/cli/status-main.ts',
      // Another agent's adapter, loaded only by its own hook calls (app/load-agent.ts).
      'agent-codex': 'src/agents/codex/adapter.ts',
      'agent-gemini': 'src/agents/gemini/adapter.ts',
    },
    // bin/shim.cjs compiles these with V8's code cache, and Node 20 drops a script's dynamic
    // import() support when it comes from a cache: their few lazy imports (built-ins) become
    // require() calls instead.
    supported: { 'dynamic-import': false },
  }),
  build({
    ...perCall,
    entryPoints: { 'hook-heavy': 'src/hook/heavy.ts' },
    // Loaded with the code cache too (through the launcher), so no dynamic import() either; and
    // secretlint is bundled in: loading its ES modules from node_modules costs a blocking
    // checkpoint ~25 ms of Node's ES-module loader on every call (docs/hot-path.md).
    external: ['@photostructure/sqlite', 'zod'],
    supported: { 'dynamic-import': false },
  }),
  // shim's Claude Code mod: one self-contained ES module, readable (Claude Code checks its source
  // before it runs it: no imports, `$` spelled out at each call).
  build({
    entryPoints: { 'shim-mod': 'src/mod/register.ts' },
    outdir: 'dist',
    bundle: false,
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
  build({
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    splitting: true,
    format: 'esm',
    minifyWhitespace: true,
    minifySyntax: true,
    chunkNames: 'chunks/[name]-[hash]',
    // commander is CommonJS and requires Node built-ins; ESM bundles need a real require for that.
    banner: {
      js: "import { createRequire as __shimCreateRequire } from 'node:module';\nconst require = __shimCreateRequire(import.meta.url);",
    },
  }),
]);
