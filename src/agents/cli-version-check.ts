/**
 * `shim doctor`'s line about an agent's CLI: the version on PATH (or in the adapter's binary
 * override) against the one the adapter was verified with (docs/agents.md). Another version may
 * write its logs or hooks differently, so it is said, never an error.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { Env } from '../store/home/home.ts';
import type { AgentAdapter, AgentCheck } from './agent.ts';

/** Where `bin` is: as given when it is a path, else the first match on PATH. */
export function locate(bin: string, env: Env): string | null {
  if (bin.includes('/')) return existsSync(bin) ? bin : null;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, bin))) return join(dir, bin);
  }
  return null;
}

/**
 * The version in the package.json of the npm package the binary belongs to (npm links bin/ to a
 * file inside it): Gemini CLI takes seconds to start for `--version`, its package.json none.
 */
function packageVersion(path: string, npmPackage: string): string | null {
  let dir: string;
  try {
    dir = dirname(realpathSync(path));
  } catch {
    return null;
  }
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (meta.name === npmPackage && typeof meta.version === 'string') return meta.version;
    } catch {
      // no package.json here: one level up
    }
  }
  return null;
}

/** The CLI's version: from its npm package, else `<bin> --version` bounded in time. */
export function readCliVersion(
  bin: string,
  env: Env,
  npmPackage?: string,
): { version: string } | { missing: true } | { error: string } {
  const path = locate(bin, env);
  if (path === null) return { missing: true };
  const fromPackage = npmPackage ? packageVersion(path, npmPackage) : null;
  if (fromPackage) return { version: fromPackage };
  const result = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: 15_000,
    env: { ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    return { missing: true };
  const version = /(\d+\.\d+\.\d+)/.exec(result.stdout ?? '')?.[1];
  if (result.status === 0 && version) return { version };
  const said = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n')[0] ?? '';
  return {
    error: result.error
      ? result.error.message
      : `exited ${result.status ?? result.signal}${said ? `: ${said}` : ''}`,
  };
}

export function cliVersionCheck(
  adapter: Pick<AgentAdapter, 'id' | 'name' | 'verifiedVersion' | 'headless'>,
  env: Env,
): AgentCheck {
  const { binEnv, defaultBin } = adapter.headless;
  const bin = env[binEnv] || defaultBin;
  const id = `${adapter.id}-version`;
  const title = `${adapter.name} version`;
  const found = readCliVersion(bin, env, adapter.headless.npmPackage);
  const pinned = `shim was verified with ${adapter.verifiedVersion}`;
  if ('missing' in found)
    return {
      id,
      title,
      status: 'warn',
      essential: false,
      detail: `\`${bin}\` is not on PATH: its version is unknown (${pinned})`,
      fix: `set ${binEnv} to the ${adapter.name} binary you run`,
    };
  if ('error' in found)
    return {
      id,
      title,
      status: 'warn',
      essential: false,
      detail: `\`${bin} --version\` failed (${found.error})`,
      fix: `check that \`${bin} --version\` runs, or set ${binEnv} to the binary you run`,
    };
  const same = found.version === adapter.verifiedVersion;
  return {
    id,
    title,
    status: same ? 'ok' : 'warn',
    essential: false,
    detail: same
      ? `${found.version}, the version shim was verified with`
      : `${found.version}; ${pinned}: its logs or hooks may differ (docs/agents.md)`,
    fix: same ? null : `if something looks off, try ${adapter.name} ${adapter.verifiedVersion}`,
  };
}

/** An adapter's doctor lines followed by its CLI's version: none when shim is not installed there. */
export function withCliVersion(
  adapter: Pick<AgentAdapter, 'id' | 'name' | 'verifiedVersion' | 'headless'>,
  checks: AgentCheck[],
  env: Env,
): AgentCheck[] {
  return checks.length === 0 ? [] : [...checks, cliVersionCheck(adapter, env)];
}
