/** shim's own log (SHIM_HOME/logs/shim.log, JSON lines): where hooks and commands report trouble. */
import { join } from 'node:path';
import { ensureDir } from './home.ts';
import { appendFileSafely } from './safe-file.ts';

/** `debug`: expected and harmless (a hook event shim does not handle), kept for whoever wonders. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export function getLogPath(home: string): string {
  return join(home, 'logs', 'shim.log');
}

/**
 * Appends one entry; false when it could not. Never throws: logging must not be the thing that
 * breaks a hook.
 */
export function appendLog(
  home: string,
  level: LogLevel,
  message: string,
  data: Record<string, unknown> = {},
): boolean {
  try {
    ensureDir(home, 'logs');
    const entry = { at: new Date().toISOString(), level, pid: process.pid, message, ...data };
    // A link planted as the log is refused, not appended through (doctor reports it).
    appendFileSafely(getLogPath(home), `${JSON.stringify(entry)}\n`);
    return true;
  } catch {
    return false; // the log is best effort
  }
}
