/**
 * Where claude-mem's worker listens, as claude-mem itself resolves it: CLAUDE_MEM_WORKER_HOST and
 * CLAUDE_MEM_WORKER_PORT from the environment, else from its settings.json (in
 * CLAUDE_MEM_DATA_DIR, default ~/.claude-mem), else 127.0.0.1 and 37700 + uid % 100.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

export function claudeMemDir(env: Env): string {
  return env.CLAUDE_MEM_DATA_DIR || join(env.HOME || homedir(), '.claude-mem');
}

/** Whether claude-mem is installed for this user (its data folder exists): a cheap check for hooks. */
export function hasClaudeMem(env: Env): boolean {
  return existsSync(claudeMemDir(env));
}

export function claudeMemUrl(env: Env): string {
  let settings: Record<string, unknown> = {};
  try {
    settings = JSON.parse(readFileSync(join(claudeMemDir(env), 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
  } catch {
    // no settings: the defaults
  }
  const pick = (key: string) =>
    env[key] ??
    (typeof settings[key] === 'string' || typeof settings[key] === 'number'
      ? String(settings[key])
      : undefined);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 77;
  const host = pick('CLAUDE_MEM_WORKER_HOST') ?? '127.0.0.1';
  const port = pick('CLAUDE_MEM_WORKER_PORT') ?? String(37_700 + (uid % 100));
  return `http://${host}:${port}`;
}
