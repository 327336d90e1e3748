/** Where shim keeps its state: SHIM_HOME, default ~/.shim, readable by the owner only. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureSafeDir } from './safe-file.ts';

export type Env = Readonly<Record<string, string | undefined>>;

export function getShimHome(env: Env = process.env): string {
  const configured = env.SHIM_HOME?.trim();
  return configured ? resolve(configured) : join(homedir(), '.shim');
}

/**
 * Creates `SHIM_HOME/<parts…>` (owner-only) and returns its path; a symbolic link planted as one
 * of its directories is refused (safe-file.ts).
 */
export function ensureDir(home: string, ...parts: string[]): string {
  return ensureSafeDir(home, ...parts.flatMap((p) => p.split(/[\\/]+/).filter((s) => s !== '')));
}
