/**
 * How Gemini CLI's hooks start this shim: the Node binary running it and the package's bin,
 * found by walking up from this module to the package.json named "shim" (dist/ when bundled,
 * src/… under tsx). Claude Code's installer has the same rule (agents/claude/settings/bin-location.ts).
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../../core/errors.ts';
import type { ShimInvocation } from './gemini-entries.ts';

export function locateShimBin(moduleUrl: string = import.meta.url): ShimInvocation {
  for (let dir = dirname(fileURLToPath(moduleUrl)); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'shim') {
        const bin = resolve(dir, 'bin', 'shim.cjs');
        if (!existsSync(bin))
          throw new AppError('USAGE', `the shim launcher ${bin} does not exist`, 'reinstall shim');
        return { node: process.execPath, bin };
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
    }
    if (dirname(dir) === dir)
      throw new AppError(
        'USAGE',
        'cannot find the shim package this command runs from',
        'run the installed `shim` binary, not a copy of its files',
      );
  }
}
