/**
 * Parts of shim that live in a bundle of their own (dist/*.cjs), loaded only by the calls that
 * need them: through bin/shim.cjs's loader, which compiles them with V8's code cache. Callers
 * write `globalThis.__SHIM_BUNDLE__ ? loadBundled('x.cjs') : await import('./x.ts')`: a
 * conditional the bundler folds, so the sources' import is not followed into the bundle.
 * @module
 */
import { join } from 'node:path';

declare global {
  // Replaced with `true` by the bundler (scripts/build.mjs); undefined when run from sources.
  var __SHIM_BUNDLE__: boolean | undefined;
}

/** Loads a bundle of dist/ by file name. */
export type BundleLoader = (name: string) => unknown;

let bundleLoader: BundleLoader | null = null;

/** The launcher hands its loader over. */
export function useBundleLoader(load: BundleLoader): void {
  bundleLoader = load;
}

/**
 * The bundle `name` (beside the calling bundle in dist/). CommonJS, so `require`d: `import()` of a
 * .cjs file makes Node's ES-module loader lex the whole bundle for its export names first (~30 ms
 * for the hooks' heavy half), and a plain require compiles it afresh each time (~8 ms).
 */
export function loadBundled(name: string): unknown {
  if (bundleLoader) return bundleLoader(name);
  // A computed path: the bundler must leave this to run time (`./${name}` it would expand).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  return require(join(__dirname, name));
}
