/**
 * Checkpoints promised but not built yet (SHIM_HOME/pending/). Before a risky command the hook
 * takes the git snapshot, writes one of these notes and returns: the command waits for git and
 * one synced write, not for building, sealing and storing (docs/hot-path.md, "The risky
 * checkpoint off the call"). The detached `shim background finish-pending` the hook starts
 * builds it; SessionStart, PreCompact and every shim command finish a note left behind.
 *
 * A note holds no text of the session, so no secret: the transcript's path and how many of its
 * bytes count, git's facts without the diff (read again from the snapshot when the checkpoint is
 * built), and beside it a copy of the transcript cursor, which is redacted like the cache it
 * comes from.
 *
 * A note is named `<time>-<id>.json` (the time zero-padded: name order is the order the hooks
 * ran, which checkpoint numbers follow). Claiming is a rename (to `….json.taken-<pid>`): one
 * builder per note. A claim
 * whose process is gone goes back to the queue; a note that failed three times is set aside in
 * `pending/failed/`, its snapshot kept (the failure itself is recorded where the user looks).
 * @module
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { GitFacts } from '../../core/checkpoint/build-checkpoint.ts';
import type { CheckpointTrigger } from '../../core/checkpoint/checkpoint.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { copyCursor } from '../cache/cursor-cache.ts';
import { isOwnerAlive } from '../home/process-alive.ts';
import { ensureSafeDir, fsyncDir, writeFileDurably } from '../home/safe-file.ts';

/** git's side as the hook saw it, the diff left out (it is read from the snapshot later). */
export type PendingGitFacts = Omit<GitFacts, 'uncommittedDiff'> & { snapshotError?: string };

export type PendingCheckpoint = {
  v: 1;
  /** The checkpoint's id, which names its snapshot too. */
  id: string;
  sessionId: string;
  /** The agent whose hook wrote it (absent in notes written before it was recorded). */
  agent?: AgentId;
  transcriptPath: string;
  /** The transcript's size when the hook ran: the checkpoint folds no byte after it. */
  transcriptBytes: number;
  cwd: string;
  /** When the hook ran (ms): the checkpoint's time. */
  at: number;
  trigger: CheckpointTrigger;
  reason: string;
  git: PendingGitFacts | null;
  /** Builds that failed so far. */
  attempts: number;
};

/** Attempts before a note is set aside. */
export const MAX_ATTEMPTS = 3;
const DIR = 'pending';
const ID = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const NOTE = /^(\d{15}-[A-Za-z0-9_][A-Za-z0-9._-]*)\.json$/;
const TAKEN = /^(\d{15}-[A-Za-z0-9_][A-Za-z0-9._-]*)\.json\.taken-(\d+)$/;
/** A note being written (safe-file.ts writeFileDurably), by the process of that pid. */
const WRITING = /\.json\.(\d+)\.tmp$/;

/** The note's file name without `.json`: when, then which. */
function keyOf(note: Pick<PendingCheckpoint, 'at' | 'id'>): string {
  return `${String(Math.max(0, Math.floor(note.at))).padStart(15, '0')}-${note.id}`;
}

function dirOf(home: string): string {
  return join(home, DIR);
}

/** The cursor copy that belongs to note `id`. */
export function pendingCursorPath(home: string, id: string): string {
  return join(dirOf(home), `${id}.cursor`);
}

/**
 * Writes the note (and its cursor copy) durably. Throws when it cannot: the caller then takes the
 * checkpoint in its own process.
 */
export function writePendingCheckpoint(home: string, note: PendingCheckpoint): void {
  if (!ID.test(note.id)) throw new Error(`"${note.id}" cannot name a pending checkpoint`);
  const dir = ensureSafeDir(home, DIR);
  copyCursor(home, note.transcriptPath, pendingCursorPath(home, note.id));
  try {
    writeFileDurably(join(dir, `${keyOf(note)}.json`), Buffer.from(JSON.stringify(note)));
  } catch (error) {
    rmSync(pendingCursorPath(home, note.id), { force: true });
    throw error;
  }
  fsyncDir(dir);
}

function listDir(home: string): string[] {
  try {
    return readdirSync(dirOf(home));
  } catch {
    return [];
  }
}

/** The notes waiting to be built (their keys, oldest first) and how many are being built. */
export type PendingList = { waiting: string[]; building: number };

/**
 * The notes waiting to be built (keys for {@link claimPendingCheckpoint}), oldest first, and the
 * number another live process is building. A claim whose builder is gone is put back first; a
 * note's temp file whose writer is gone is removed.
 */
export function listPendingCheckpoints(home: string): PendingList {
  const keys: string[] = [];
  let building = 0;
  for (const name of listDir(home)) {
    const writing = WRITING.exec(name);
    if (writing && Number(writing[1]) !== process.pid && !isOwnerAlive(Number(writing[1]))) {
      // A note whose writer was killed mid-write: the hook told of no checkpoint, nothing waits.
      rmSync(join(dirOf(home), name), { force: true });
      continue;
    }
    const taken = TAKEN.exec(name);
    if (taken && Number(taken[2]) !== process.pid && isOwnerAlive(Number(taken[2]))) {
      building++;
      continue;
    }
    if (taken) {
      try {
        renameSync(join(dirOf(home), name), join(dirOf(home), `${taken[1]}.json`));
        keys.push(taken[1]!);
      } catch {
        // another process put it back or took it meanwhile
      }
      continue;
    }
    const note = NOTE.exec(name);
    if (note) keys.push(note[1]!);
  }
  return { waiting: [...new Set(keys)].sort(), building };
}

/** True when a note waits (one directory read: cheap enough for every command). */
export function hasPendingCheckpoints(home: string): boolean {
  return listDir(home).some((name) => NOTE.test(name) || TAKEN.test(name));
}

function parseNote(text: string): PendingCheckpoint | null {
  try {
    const value = JSON.parse(text) as Partial<PendingCheckpoint>;
    if (
      value.v !== 1 ||
      typeof value.id !== 'string' ||
      typeof value.transcriptPath !== 'string' ||
      typeof value.transcriptBytes !== 'number' ||
      typeof value.at !== 'number'
    )
      return null;
    return value as PendingCheckpoint;
  } catch {
    return null;
  }
}

/** A note this process now owns, or null when another took it first (or it is unreadable). */
export type ClaimedNote = { note: PendingCheckpoint; file: string };

export function claimPendingCheckpoint(home: string, key: string): ClaimedNote | null {
  const file = join(dirOf(home), `${key}.json.taken-${process.pid}`);
  try {
    renameSync(join(dirOf(home), `${key}.json`), file);
  } catch {
    return null;
  }
  const note = parseNote(readFileSync(file, 'utf8'));
  if (!note) {
    setAside(home, file, key);
    return null;
  }
  return { note, file };
}

/** The note's checkpoint is stored: the note and its cursor copy go. */
export function completePendingCheckpoint(home: string, claimed: ClaimedNote): void {
  rmSync(claimed.file, { force: true });
  rmSync(pendingCursorPath(home, claimed.note.id), { force: true });
}

/**
 * Building failed: the note goes back with one more attempt counted, or, at the last attempt,
 * into `pending/failed/`. True when it was set aside.
 */
export function failPendingCheckpoint(home: string, claimed: ClaimedNote): boolean {
  const attempts = claimed.note.attempts + 1;
  if (attempts >= MAX_ATTEMPTS) {
    setAside(home, claimed.file, keyOf(claimed.note));
    return true;
  }
  writeFileDurably(
    join(dirOf(home), `${keyOf(claimed.note)}.json`),
    Buffer.from(JSON.stringify({ ...claimed.note, attempts })),
  );
  rmSync(claimed.file, { force: true });
  return false;
}

function setAside(home: string, file: string, key: string): void {
  const failed = ensureSafeDir(home, DIR, 'failed');
  const aside = join(failed, `${key}.json`);
  renameSync(file, aside);
  // Its time says when it was set aside (doctor: today's are current, older ones past).
  const now = new Date();
  utimesSync(aside, now, now);
  const id = key.slice(key.indexOf('-') + 1);
  rmSync(pendingCursorPath(home, id), { force: true });
}

/** The notes set aside (doctor and status say so): when each was set aside (ms). */
export function listFailedPendingCheckpoints(home: string): { file: string; setAsideAt: number }[] {
  const dir = join(dirOf(home), 'failed');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = join(dir, name);
    try {
      return [{ file, setAsideAt: statSync(file).mtimeMs }];
    } catch {
      return [];
    }
  });
}

/** How many notes were set aside. */
export function countFailedPendingCheckpoints(home: string): number {
  return listFailedPendingCheckpoints(home).length;
}

/**
 * `shim doctor --clear-failures`: the user has seen them; the notes go, their git snapshots
 * (refs/shim/snapshots/) stay. Returns how many were removed.
 */
export function clearFailedPendingCheckpoints(home: string): number {
  const notes = listFailedPendingCheckpoints(home);
  for (const note of notes) rmSync(note.file, { force: true });
  return notes.length;
}
