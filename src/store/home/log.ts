/** shim's own log (SHIM_HOME/logs/shim.log, JSON lines): where hooks and commands report trouble. */
import { join } from 'node:path';
import { ensureDir } from './home.ts';
import { appendFileSafely } from './safe-file.ts';

/** redact/redact.ts `redactValueSync`, as the log uses it. */
export type LogRedaction = <T>(value: T) => { value: T };

declare global {
  // The process's redaction for log entries, shared by every bundle the process loaded.
  var __SHIM_LOG_REDACTION__: LogRedaction | undefined;
  // The bundler's flag, declared in app/load-bundle.ts too: the store may not import app, and the
  // dashboard client's typecheck reaches this file without that one.
  var __SHIM_BUNDLE__: boolean | undefined;
}

/**
 * Hands the log the redaction every entry passes (a message quoting a command's argv, an error
 * holding part of a payload): the log is kept like everything else shim writes. The entry points
 * that carry the redactor (the full hook, the CLI) hand it over; the quiet per-call bundles do not
 * carry it (their size is the hot path's), so an entry they write loads dist/redact.cjs first —
 * they log only when something failed. Run from sources with none handed over, entries are
 * written as they are.
 */
export function useLogRedaction(redaction: LogRedaction): void {
  globalThis.__SHIM_LOG_REDACTION__ = redaction;
}

function logRedaction(): LogRedaction | null {
  if (globalThis.__SHIM_LOG_REDACTION__) return globalThis.__SHIM_LOG_REDACTION__;
  if (!globalThis.__SHIM_BUNDLE__) return null;
  // A computed path beside this bundle in dist/: the bundler leaves it to run time.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const loaded = require(join(__dirname, 'redact.cjs')) as { redactValueSync: LogRedaction };
  useLogRedaction(loaded.redactValueSync);
  return loaded.redactValueSync;
}

/** `debug`: expected and harmless (a hook event shim does not handle), kept for whoever wonders. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export function getLogPath(home: string): string {
  return join(home, 'logs', 'shim.log');
}

/**
 * Appends one entry, redacted; false when it could not. Never throws: logging must not be the
 * thing that breaks a hook (an entry that cannot be redacted is not written).
 */
export function appendLog(
  home: string,
  level: LogLevel,
  message: string,
  data: Record<string, unknown> = {},
): boolean {
  try {
    ensureDir(home, 'logs');
    const redaction = logRedaction();
    const said = redaction ? redaction({ message, ...data }).value : { message, ...data };
    const entry = { at: new Date().toISOString(), level, pid: process.pid, ...said };
    // A link planted as the log is refused, not appended through (doctor reports it).
    appendFileSafely(getLogPath(home), `${JSON.stringify(entry)}\n`);
    return true;
  } catch {
    return false; // the log is best effort
  }
}
