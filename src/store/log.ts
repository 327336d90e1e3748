/** shim's own log (SHIM_HOME/logs/shim.log, JSON lines): where hooks and commands report trouble. */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from './home.ts';

export type LogLevel = 'info' | 'warn' | 'error';

export function getLogPath(home: string): string {
  return join(home, 'logs', 'shim.log');
}

/** Appends one entry. Never throws: logging must not be the thing that breaks a hook. */
export function appendLog(
  home: string,
  level: LogLevel,
  message: string,
  data: Record<string, unknown> = {},
): void {
  try {
    ensureDir(home, 'logs');
    const entry = { at: new Date().toISOString(), level, pid: process.pid, message, ...data };
    appendFileSync(getLogPath(home), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  } catch {
    // the log is best effort
  }
}
