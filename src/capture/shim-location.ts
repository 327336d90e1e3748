/**
 * Where the running shim is: the Node binary executing it (`process.execPath`) and the absolute
 * path of the package's bundle, found by walking up from this module (dist/ or dist/chunks/ when
 * bundled, src/… under tsx) to the package.json named "shim".
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../core/errors.ts';

/** How hooks and MCP entries start this shim: the Node binary and the bundle it runs. */
export type ShimInvocation = { readonly node: string; readonly bin: string };

/** The package root at or above `start`, and the bin it declares; null when there is none. */
export function findShimPackage(
  start: string,
): { root: string; bin: string; version: string } | null {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        bin?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'shim') {
        const declared =
          typeof pkg.bin === 'string'
            ? pkg.bin
            : typeof pkg.bin === 'object' && pkg.bin !== null
              ? (pkg.bin as Record<string, unknown>).shim
              : undefined;
        return {
          root: dir,
          bin: resolve(dir, typeof declared === 'string' ? declared : 'bin/shim.cjs'),
          version: typeof pkg.version === 'string' ? pkg.version : '0.0.0',
        };
      }
    } catch {
      // no (readable) package.json here
    }
    if (dirname(dir) === dir) return null;
  }
}

/** How hooks should start this shim. Throws when the bundle is not there to be started. */
export function locateShimInvocation(moduleUrl: string = import.meta.url): ShimInvocation {
  const found = findShimPackage(dirname(fileURLToPath(moduleUrl)));
  if (!found) {
    throw new AppError(
      'USAGE',
      'cannot find the shim package this command runs from',
      'run the installed `shim` binary (npm install -g …), not a copy of its files',
    );
  }
  if (!existsSync(found.bin)) {
    throw new AppError(
      'USAGE',
      `the shim bundle ${found.bin} does not exist`,
      `build it first: (cd ${found.root} && npm run build)`,
    );
  }
  return { node: process.execPath, bin: found.bin };
}

/** True for paths in a package runner's cache (npx, pnpm dlx, bunx), which can vanish any time. */
export function isEphemeralPath(path: string): boolean {
  return /[\\/]_npx[\\/]|[\\/]dlx[\\/]|[\\/]bunx-/.test(path);
}
