/**
 * PreToolUse (Bash): before a command that can destroy work, a git snapshot and a checkpoint.
 * Never blocks. The command waits for the snapshot and a durable note of the checkpoint, not for
 * the checkpoint itself: a detached process builds it from the note (store/checkpoints/pending-checkpoints.ts,
 * docs/hot-path.md "The risky checkpoint off the call"). Where no note can be written, or git's
 * side needs the diff read now (no snapshot, no commit yet), the checkpoint is taken here.
 */
import { statSync } from 'node:fs';
import { detectRiskyCommand } from '../../core/policy/risky-operation.ts';
import { loadHeavy } from '../load-heavy.ts';
import { tryClaimOnce } from '../../store/cache/hook-memory.ts';
import { appendLog } from '../../store/home/log.ts';
import {
  writePendingCheckpoint,
  type PendingGitFacts,
} from '../../store/checkpoints/pending-checkpoints.ts';
import { runShimInBackground } from '../../app/run-in-background.ts';
import type { GitCapture } from '../../capture/git.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';
import { noteStartedCall } from '../started-calls.ts';

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/**
 * git's facts for the note. No diff: it is read from the snapshot when the checkpoint is built
 * (no text of the user's files is written outside the store).
 */
function withoutDiff(git: GitCapture): PendingGitFacts {
  const facts: PendingGitFacts & { uncommittedDiff?: string } = { ...git };
  delete facts.uncommittedDiff;
  return facts;
}

/** Writes the note and starts its builder; false when the note could not be written. */
async function promiseCheckpoint(
  run: HookRun,
  id: string,
  reason: string,
  transcriptBytes: number,
  git: GitCapture | null,
): Promise<boolean> {
  const { payload, env, home, now } = run;
  const cwd = payload.cwd ?? process.cwd();
  try {
    writePendingCheckpoint(home, {
      v: 1,
      id,
      sessionId: payload.sessionId!,
      agent: run.agent.id,
      transcriptPath: payload.transcriptPath!,
      transcriptBytes,
      cwd,
      at: now,
      trigger: 'risky_operation',
      reason,
      git: git && withoutDiff(git),
      attempts: 0,
    });
  } catch (error) {
    appendLog(home, 'warn', 'PreToolUse: no pending checkpoint note; checkpointing in the hook', {
      sessionId: payload.sessionId,
      error: String(error),
    });
    return false;
  }
  await runShimInBackground(['background', 'finish-pending'], cwd, env, home);
  return true;
}

export async function handlePreToolUse(run: HookRun): Promise<HookOutput> {
  const { payload, home, now, config } = run;
  await noteStartedCall(run);
  const command = payload.toolInput?.command;
  if (payload.toolName !== 'Bash' || typeof command !== 'string' || !payload.sessionId) return {};
  const risky = detectRiskyCommand(command);
  if (!risky || !payload.transcriptPath) return {};
  const useId = typeof payload.raw.tool_use_id === 'string' ? payload.raw.tool_use_id : String(now);
  // Unwritable (a full or read-only SHIM_HOME): nobody else took it; the attempt below fails
  // and says so, rather than let the command run unprotected without a word.
  if (tryClaimOnce(home, payload.sessionId, `risky-${useId}`) === 'taken') return {};
  // The transcript as it is now, before the command: the checkpoint folds nothing after it.
  const transcriptBytes = sizeOf(payload.transcriptPath);
  // Loaded here, not at the top: git's code needs node:child_process, ~2 ms that every other
  // event of this bundle (each PostToolUse's full look) must not pay.
  const { addUncommittedDiff, captureGitState } = await import('../../capture/git.ts');
  const checkpointId = globalThis.crypto.randomUUID();
  const git = payload.cwd
    ? await captureGitState(payload.cwd, { snapshot: { checkpointId }, diff: false })
    : null;
  const reason = `before ${risky}`;
  const snapshot = git?.snapshot ? ' with a git snapshot' : '';
  const undo = git?.snapshot ? ` (undo: shim restore-files ${checkpointId.slice(0, 8)})` : '';
  // The diff can be read from the snapshot later only where there is a snapshot and a HEAD.
  const deferrable = !git?.repoRoot || (git.snapshot !== null && git.head !== null);
  if (
    transcriptBytes !== null &&
    deferrable &&
    (await promiseCheckpoint(run, checkpointId, reason, transcriptBytes, git))
  ) {
    return { userMessage: `shim: checkpoint saved${snapshot} before \`${risky}\`${undo}.` };
  }
  const saved = await (
    await loadHeavy()
  ).checkpointNow(run, 'risky_operation', reason, {
    config,
    ...(git ? { git: { checkpointId, capture: addUncommittedDiff(git) } } : {}),
  });
  // Why it was lost follows from the storage notice (hook/run.ts) where shim could not save.
  if (!saved) return { userMessage: `shim: no checkpoint could be saved before \`${risky}\`.` };
  return {
    userMessage: `shim: checkpoint #${saved.checkpoint.checkpointNumber} saved${snapshot} before \`${risky}\`${undo}.`,
  };
}
