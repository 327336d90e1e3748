/**
 * Telling the user that shim cannot save (a full disk, a read-only SHIM_HOME): the hooks
 * otherwise go on silently while every checkpoint — PreCompact's too — is lost. Said once per
 * session where a marker can be written; where nothing can be (a read-only SHIM_HOME), at the
 * session's start and with each request, since nothing can record that it was said.
 * @module
 */
import { claimOnce } from '../store/cache/hook-memory.ts';
import { appendLog } from '../store/home/log.ts';
import {
  describeStorageFailure,
  probeStorage,
  storageFailureOf,
  type StorageFailure,
} from '../store/home/storage-failure.ts';

let seenInThisProcess: StorageFailure | null = null;

/** Records a failure met while saving (a checkpoint lost); logs it, on stderr if the log cannot. */
export function noteStorageFailure(home: string, what: string, error: unknown): boolean {
  const kind = storageFailureOf(error, home);
  if (kind === null) return false;
  seenInThisProcess = kind;
  const { message } = describeStorageFailure(kind, home);
  if (!appendLog(home, 'error', `${what}: ${message}`, { error: String(error) }))
    process.stderr.write(`shim: ${what}: ${message}\n`);
  return true;
}

const PROBED_EVENTS = new Set(['SessionStart', 'UserPromptSubmit', 'Stop']);

/** The line for the user, when there is one to give at this event. */
export function storageNotice(
  home: string,
  event: string,
  sessionId: string | null,
): string | null {
  const kind = seenInThisProcess ?? (PROBED_EVENTS.has(event) ? probeStorage(home) : null);
  seenInThisProcess = null;
  if (kind === null) return null;
  let tell: boolean;
  try {
    tell = sessionId === null || claimOnce(home, sessionId, `storage-${kind}`);
  } catch {
    tell = event === 'SessionStart' || event === 'UserPromptSubmit';
  }
  if (!tell) return null;
  const { message, hint } = describeStorageFailure(kind, home);
  return `shim: ${message} — ${hint}.`;
}
