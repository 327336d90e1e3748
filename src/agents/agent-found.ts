/**
 * Whether an agent looks used on this machine, for `shim install` without --agent: its CLI on
 * PATH (or at its override), else its settings directory. Each agent's installer names its own.
 * @module
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { Env } from '../store/home/home.ts';
import { locate } from './cli-version-check.ts';

/** `~/…` for a path under the home directory: how a user would look for it. */
function tilde(path: string, env: Env): string {
  const home = env.HOME || homedir();
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** Why the agent looks used (`codex on PATH`, `~/.codex exists`), or null. */
export function foundBy(bin: string, settingsDir: string, env: Env): string | null {
  const path = locate(bin, env);
  if (path !== null) return `${bin} on PATH`;
  return existsSync(settingsDir) ? `${tilde(settingsDir, env)} exists` : null;
}
