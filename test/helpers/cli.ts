/** Runs the built `shim` binary as a user would, with its own SHIM_HOME and no real ~/.claude. */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { sharingCodeCache } from './shared-code-cache.ts';

export const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'shim.cjs');

export type Run = { status: number | null; stdout: string; stderr: string };

export function runShim(
  home: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Run {
  const result = sharingCodeCache(home, () =>
    spawnSync(process.execPath, [BIN, ...args], {
      encoding: 'utf8',
      ...(options.input !== undefined ? { input: options.input } : {}),
      cwd: options.cwd ?? process.cwd(),
      env: {
        ...process.env,
        SHIM_HOME: home,
        CLAUDE_CONFIG_DIR: join(home, 'no-claude'),
        NO_COLOR: '1',
        ...options.env,
      },
    }),
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
