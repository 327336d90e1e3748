/** Loads the heavy half of the hooks: its own bundle when built, the sources under tsx. */
import type * as Heavy from './heavy.ts';

declare global {
  // Replaced with `true` by the bundler (scripts/build.mjs); undefined when run from sources.
  var __SHIM_BUNDLE__: boolean | undefined;
}

const BUNDLE = './hook-heavy.cjs'; // a variable, so the bundler leaves it to run time

export function loadHeavy(): Promise<typeof Heavy> {
  // A conditional the bundler folds: the sources' import must not be followed into the bundle.
  // The bundle is CommonJS: `require` it. `import()` of a .cjs file makes Node's ES-module loader
  // lex the whole 300 KB bundle for its export names first (~30 ms per blocking checkpoint).
  return globalThis.__SHIM_BUNDLE__
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      Promise.resolve(require(BUNDLE) as typeof Heavy)
    : import('./heavy.ts');
}
