/**
 * Checkpoints that failed, per session (SHIM_HOME/cache/checkpoint-failures.json), so that a
 * failure is seen where the user looks — the statusline, `shim status`, `shim doctor`, `shim
 * stats` — and not only in the log. A session's entry goes when its next checkpoint is stored.
 * A small JSON file rather than a table: the statusline reads it on every render without
 * loading SQLite, and it can be written when the store itself is what failed.
 * @module
 */
import { join } from 'node:path';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';
import { ensureSafeDir } from '../home/safe-file.ts';

export type CheckpointFailure = {
  sessionId: string;
  /** ISO time of the newest failure. */
  at: string;
  trigger: string;
  /** The newest failure's message, one line. */
  message: string;
  /** Failures since the session's last stored checkpoint. */
  count: number;
};

const FILE = ['cache', 'checkpoint-failures.json'] as const;
/** Sessions kept: the newest failures. */
const MAX_SESSIONS = 50;

function pathOf(home: string): string {
  return join(home, ...FILE);
}

/** Every recorded failure, newest first. */
export function readCheckpointFailures(home: string): CheckpointFailure[] {
  const value = readJsonFile(pathOf(home)) as { failures?: unknown } | null;
  const list = Array.isArray(value?.failures) ? (value.failures as CheckpointFailure[]) : [];
  return list
    .filter((f) => f && typeof f.sessionId === 'string' && typeof f.at === 'string')
    .sort((a, b) => b.at.localeCompare(a.at));
}

/** The failure recorded for `sessionId`, if its newest checkpoint failed. */
export function getCheckpointFailure(home: string, sessionId: string): CheckpointFailure | null {
  return readCheckpointFailures(home).find((f) => f.sessionId === sessionId) ?? null;
}

/** Best effort: the caller is already handling a failure and must not get a second one. */
export function recordCheckpointFailure(
  home: string,
  failure: Omit<CheckpointFailure, 'count'>,
): void {
  try {
    const list = readCheckpointFailures(home);
    const previous = list.find((f) => f.sessionId === failure.sessionId);
    const message = failure.message.replace(/\s+/g, ' ').slice(0, 300);
    const next: CheckpointFailure = { ...failure, message, count: (previous?.count ?? 0) + 1 };
    const rest = list.filter((f) => f.sessionId !== failure.sessionId);
    ensureSafeDir(home, FILE[0]);
    writeJsonFileAtomic(pathOf(home), { failures: [next, ...rest].slice(0, MAX_SESSIONS) });
  } catch {
    // nowhere left to say it: the log line the caller writes is all there is
  }
}

/** After a stored checkpoint: the session's failures are over. */
export function clearCheckpointFailure(home: string, sessionId: string): void {
  try {
    const list = readCheckpointFailures(home);
    if (!list.some((f) => f.sessionId === sessionId)) return;
    writeJsonFileAtomic(pathOf(home), {
      failures: list.filter((f) => f.sessionId !== sessionId),
    });
  } catch {
    // shown once more; the next checkpoint clears it
  }
}

/** `shim doctor --clear-failures`: the user has seen them. Returns how many were cleared. */
export function clearCheckpointFailures(home: string): number {
  const list = readCheckpointFailures(home);
  if (list.length > 0) writeJsonFileAtomic(pathOf(home), { failures: [] });
  return list.length;
}

/** One line for a person: what failed, how often, and where to look. */
export function describeCheckpointFailure(f: CheckpointFailure): string {
  const times = f.count === 1 ? 'the last checkpoint' : `the last ${f.count} checkpoints`;
  return `${times} of session ${f.sessionId.slice(0, 8)} failed (${f.message}); see shim doctor and $SHIM_HOME/logs/shim.log`;
}
