/** Where shim keeps its state: SHIM_HOME, default ~/.shim, readable by the owner only. */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

export function getShimHome(env: Env = process.env): string {
  const configured = env.SHIM_HOME?.trim();
  return configured ? resolve(configured) : join(homedir(), '.shim');
}

/** Creates `SHIM_HOME/<parts…>` (owner-only) and returns its path. */
export function ensureDir(home: string, ...parts: string[]): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const dir = join(home, ...parts);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
