/** Loads the heavy half of the hooks: its own bundle when built, the sources under tsx. */
import type * as Heavy from './heavy.ts';

declare global {
  // Replaced with `true` by the bundler (scripts/build.mjs); undefined when run from sources.
  var __SHIM_BUNDLE__: boolean | undefined;
}

const BUNDLE = './hook-heavy.cjs'; // a variable, so the bundler leaves it to run time

/** Loads a bundle of dist/ by file name: bin/shim.cjs's loader, which uses V8's code cache. */
export type BundleLoader = (name: string) => unknown;

let bundleLoader: BundleLoader | null = null;

/** The launcher hands its loader over: the heavy bundle then compiles from the code cache too. */
export function useBundleLoader(load: BundleLoader): void {
  bundleLoader = load;
}

export function loadHeavy(): Promise<typeof Heavy> {
  // A conditional the bundler folds: the sources' import must not be followed into the bundle.
  // The bundle is CommonJS: `require` it. `import()` of a .cjs file makes Node's ES-module loader
  // lex the whole bundle for its export names first (~30 ms per blocking checkpoint), and a plain
  // require compiles it afresh each time (~8 ms): the launcher's loader uses the code cache.
  if (!globalThis.__SHIM_BUNDLE__) return import('./heavy.ts');
  const heavy = bundleLoader
    ? bundleLoader(BUNDLE.slice(2))
    : // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      require(BUNDLE);
  return Promise.resolve(heavy as typeof Heavy);
}
