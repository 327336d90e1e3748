/**
 * `shim doctor`'s line about an agent's CLI: the version on PATH (or in the adapter's binary
 * override) against the one the adapter was verified with (docs/agents.md). Another version may
 * write its logs or hooks differently, so it is said, never an error.
 * @module
 */
import { spawnSync } from 'node:child_process';
import type { Env } from '../store/home.ts';
import type { AgentAdapter, AgentCheck } from './agent.ts';

/** `<bin> --version`, bounded in time: the x.y.z it prints, or why there is none. */
export function readCliVersion(
  bin: string,
  env: Env,
): { version: string } | { missing: true } | { error: string } {
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
  const found = readCliVersion(bin, env);
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
