/** Loads the heavy half of the hooks: its own bundle when built, the sources under tsx. */
import { loadBundled } from '../app/load-bundle.ts';
import type * as Heavy from './heavy.ts';

export async function loadHeavy(): Promise<typeof Heavy> {
  return globalThis.__SHIM_BUNDLE__
    ? (loadBundled('hook-heavy.cjs') as typeof Heavy)
    : await import('./heavy.ts');
}
