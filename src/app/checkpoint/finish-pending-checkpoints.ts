/**
 * Building the checkpoints a hook promised before a risky command (store/checkpoints/pending-checkpoints.ts):
 * the session as the hook saw it (the transcript up to the bytes it had, folded on from the
 * cursor it had), git's facts it took, the diff read again from the snapshot. The checkpoint
 * carries the hook's time and id, so it is the one the hook announced.
 * @module
 */
import type { CheckpointResult } from './create-checkpoint.ts';
import { createCheckpoint } from './create-checkpoint.ts';
import { withStore } from '../open-store.ts';
import type { SessionState } from '../../core/session.ts';
import type { GitCapture } from '../../capture/git.ts';
import { NO_GIT, readSnapshotDiff } from '../../capture/git.ts';
import { recordCheckpointFailure } from '../../store/cache/checkpoint-failures.ts';
import { loadCursorCopy } from '../../store/cache/cursor-cache.ts';
import type { Env } from '../../store/home/home.ts';
import { appendLog } from '../../store/home/log.ts';
import {
  claimPendingCheckpoint,
  completePendingCheckpoint,
  failPendingCheckpoint,
  listPendingCheckpoints,
  pendingCursorPath,
  type PendingCheckpoint,
  type PendingList,
} from '../../store/checkpoints/pending-checkpoints.ts';
import type { Agent, Agents } from '../../agents/agent.ts';
import { detectLogAgent } from '../session/session-log.ts';
import { scrubSessionState } from '../../transcript/scrub.ts';

export type FinishedPending = {
  stored: CheckpointResult[];
  /** Notes whose build failed (tried again later, or set aside after the last attempt). */
  failed: { id: string; sessionId: string; error: string; setAside: boolean }[];
};

/**
 * The session as it stood when the hook ran: no line written after it counts. A transcript that
 * cannot be read is a failed checkpoint, recorded where the user looks like any other.
 */
function readStateAsSeen(home: string, note: PendingCheckpoint, agent: Agent): SessionState {
  return recordingFailure(home, note, () => {
    const cursor = loadCursorCopy(pendingCursorPath(home, note.id));
    const read = agent.log.read(note.transcriptPath, cursor, { untilByte: note.transcriptBytes });
    return scrubSessionState(read.cursor.state);
  });
}

/** `read`'s result; its failure is recorded where the user looks, then thrown on. */
function recordingFailure<T>(home: string, note: PendingCheckpoint, read: () => T): T {
  try {
    return read();
  } catch (error) {
    recordCheckpointFailure(home, {
      sessionId: note.sessionId,
      at: new Date(note.at).toISOString(),
      trigger: note.trigger,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

/** The agent whose hook wrote the note; a note from before that is told from its log. */
async function agentOf(home: string, note: PendingCheckpoint, agents: Agents): Promise<Agent> {
  if (note.agent) return agents.agent(note.agent);
  try {
    return await detectLogAgent(note.transcriptPath, null, agents);
  } catch (error) {
    return recordingFailure(home, note, () => {
      throw error;
    });
  }
}

/** git as the hook saw it; nothing when it had no directory (git now would be after the command). */
async function gitAsSeen(note: PendingCheckpoint): Promise<GitCapture> {
  const git = note.git ?? NO_GIT;
  const { snapshotError, ...facts } = git;
  const diff =
    git.repoRoot && git.head && git.snapshot
      ? await readSnapshotDiff(git.repoRoot, git.head, git.snapshot.commit, [
          ...git.modifiedFiles,
          ...git.stagedFiles,
        ])
      : '';
  const capture: GitCapture = { ...facts, uncommittedDiff: diff };
  return snapshotError === undefined ? capture : { ...capture, snapshotError };
}

/** How long a reader waits for another process's build at most (it normally takes < 1 s). */
const WAIT_LIMIT_MS = 10_000;
const POLL_MS = 25;

/**
 * Builds and stores every waiting note, oldest first; never throws. With `wait`, also waits for
 * the notes another process is building (a restore or a command must see them), up to 10 s.
 */
export async function finishPendingCheckpoints(
  home: string,
  env: Env,
  agents: Agents,
  options: { wait?: boolean } = {},
): Promise<FinishedPending> {
  const done: FinishedPending = { stored: [], failed: [] };
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    let list: PendingList;
    try {
      list = listPendingCheckpoints(home);
    } catch (error) {
      appendLog(home, 'error', 'could not read the pending checkpoints', { error: String(error) });
      return done;
    }
    for (const key of list.waiting) await finishOne(home, env, agents, key, done);
    if (!options.wait || list.building === 0) return done;
    if (Date.now() > deadline) {
      appendLog(home, 'warn', 'a pending checkpoint is still being built; not waiting longer', {
        building: list.building,
      });
      return done;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function finishOne(
  home: string,
  env: Env,
  agents: Agents,
  key: string,
  done: FinishedPending,
) {
  const claimed = claimPendingCheckpoint(home, key);
  if (!claimed) return;
  const { note } = claimed;
  try {
    const agent = await agentOf(home, note, agents);
    // One store for both: a builder killed between its commit and removing the note left the
    // checkpoint stored, so it is not stored again.
    const result = await withStore(home, (store) =>
      store.checkpoints.getById(note.id) !== null
        ? null
        : createCheckpoint({
            log: { path: note.transcriptPath, agent },
            cwd: note.cwd,
            env,
            home,
            now: note.at,
            trigger: note.trigger,
            reason: note.reason,
            hotPath: true,
            store,
            known: {
              state: readStateAsSeen(home, note, agent),
              git: { checkpointId: note.id, capture: gitAsSeen(note), keep: true },
            },
          }),
    );
    completePendingCheckpoint(home, claimed);
    if (result) done.stored.push(result);
  } catch (error) {
    let setAside = false;
    try {
      setAside = failPendingCheckpoint(home, claimed);
    } catch (again) {
      appendLog(home, 'error', 'could not put a pending checkpoint back', {
        id: note.id,
        error: String(again),
      });
    }
    appendLog(home, 'error', 'a pending checkpoint could not be built', {
      id: note.id,
      sessionId: note.sessionId,
      attempt: note.attempts + 1,
      setAside,
      error: String(error),
    });
    done.failed.push({ id: note.id, sessionId: note.sessionId, error: String(error), setAside });
  }
}
