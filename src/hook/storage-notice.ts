/**
 * Telling the user that shim cannot save (a full disk, a read-only SHIM_HOME, a SHIM_HOME that
 * cannot be a folder): the hooks otherwise go on silently while every checkpoint — PreCompact's
 * too — is lost. Said once per session where a marker can be written; where none can, nothing can
 * record that it was said: then at the session's start and with each request. A checkpoint lost
 * in this very call (a risky command's, a level's) is told with its reason each time. Never on
 * every quiet tool call. PreCompact and SessionEnd cannot show a line (Claude Code drops it there): their loss
 * is seen on the statusline (statusline/run.ts) and at the next start.
 * @module
 */
import { tryClaimOnce } from '../store/cache/hook-memory.ts';
import { appendLog } from '../store/home/log.ts';
import {
  describeStorageFailure,
  probeStorage,
  storageFailureOf,
  type StorageFailure,
} from '../store/home/storage-failure.ts';

/**
 * The failure this process met while saving. Kept on the process, not in this module: the hook's
 * bundle and the heavy bundle that stores checkpoints (dist/hook-heavy.cjs) each carry a copy of
 * this module, and the one that notes a loss is not the one that tells it.
 */
const SEEN = Symbol.for('shim.storageFailureSeen');
const LOST = Symbol.for('shim.checkpointLostToStorage');
const seen = globalThis as { [SEEN]?: StorageFailure | null; [LOST]?: boolean };

/**
 * Records a failure met while saving; logs it, on stderr if the log cannot. `lostCheckpoint`: what
 * failed was a checkpoint (told with its reason at once), not the hooks' own memory.
 */
export function noteStorageFailure(
  home: string,
  what: string,
  error: unknown,
  lostCheckpoint = false,
): boolean {
  const kind = storageFailureOf(error, home);
  if (kind === null) return false;
  seen[SEEN] = kind;
  if (lostCheckpoint) seen[LOST] = true;
  const { message } = describeStorageFailure(kind, home);
  if (!appendLog(home, 'error', `${what}: ${message}`, { error: String(error) }))
    process.stderr.write(`shim: ${what}: ${message}\n`);
  return true;
}

const PROBED_EVENTS = new Set(['SessionStart', 'UserPromptSubmit', 'Stop']);
/** Claude Code shows no line from these: nothing is claimed there, so the next door tells. */
const UNSEEN_EVENTS = new Set(['PreCompact', 'PostCompact', 'SessionEnd']);
/** Where a line is worth giving even when nothing records that it was given. */
const TOLD_UNMARKED = new Set(['SessionStart', 'UserPromptSubmit']);

/** The line for the user, when there is one to give at this event. */
export function storageNotice(
  home: string,
  event: string,
  sessionId: string | null,
): string | null {
  const lostNow = seen[LOST] === true;
  const kind = seen[SEEN] ?? (PROBED_EVENTS.has(event) ? probeStorage(home) : null);
  seen[SEEN] = null;
  seen[LOST] = false;
  if (kind === null || UNSEEN_EVENTS.has(event)) return null;
  const claim =
    sessionId === null ? 'unwritable' : tryClaimOnce(home, sessionId, `storage-${kind}`);
  // A checkpoint lost in this very call is told with its reason every time (a risky command's,
  // a level's: rare, and each one ran unprotected); the standing state once per session.
  const tell =
    claim === 'claimed' || lostNow || (claim === 'unwritable' && TOLD_UNMARKED.has(event));
  if (!tell) return null;
  const { message, hint } = describeStorageFailure(kind, home);
  return `shim: ${message} — ${hint}.`;
}
