// Bundles the CLI with esbuild: one ESM entry, commands split into lazily loaded chunks,
// so a hook or `status` call parses only the code it runs.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { shim: 'src/bin.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // commander is CommonJS and requires Node built-ins; ESM bundles need a real require for that.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __shimCreateRequire } from 'node:module';\nconst require = __shimCreateRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  // Native addons find their prebuilt binaries relative to their own package: never bundle them.
  external: ['@photostructure/sqlite', '@secretlint/*'],
  legalComments: 'none',
  logLevel: 'warning',
});
