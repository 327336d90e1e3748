/**
 * Which Claude Code the user runs: `claude --version` on PATH, bounded in time. Used by
 * `shim install` to set up what that version supports; null when there is no `claude` to ask.
 * @module
 */
import { spawnSync } from 'node:child_process';
import type { Env } from '../../store/home/home.ts';

export function detectClaudeVersion(env: Env): string | null {
  try {
    const result = spawnSync('claude', ['--version'], {
      encoding: 'utf8',
      timeout: 10_000,
      env: { ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (result.status !== 0) return null;
    return /(\d+\.\d+\.\d+)/.exec(result.stdout ?? '')?.[1] ?? null;
  } catch {
    return null;
  }
}
