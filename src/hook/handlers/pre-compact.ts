/**
 * PreCompact: a checkpoint and a handoff document before the compaction runs, and — where the
 * agent appends a PreCompact hook's output to the summary's instructions (its
 * `hooks.compactInstructions`) — instructions that make its own summary keep the user's requests,
 * the task list, standing instructions, files and the last test result. Opt-in
 * (`blockAutoCompact` in config.json): block a proactive auto-compaction once they are saved, so
 * the user can continue in a fresh session instead. Never blocks a reactive one — the agent is
 * then recovering from a context-limit error and blocking would fail the request.
 * @module
 */
import { finishPendingCheckpoints } from '../../app/checkpoint/finish-pending-checkpoints.ts';
import { compactionClaimKey } from '../../app/checkpoint/mod-compaction.ts';
import { withStore } from '../../app/open-store.ts';
import { loadSessionState } from '../../app/session/read-session.ts';
import { writeHandoff } from '../../app/write-handoff.ts';
import type { ProjectFilesSetting } from '../../app/project-files.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { SessionState } from '../../core/session.ts';
import { releaseClaim, tryClaimOnce } from '../../store/cache/hook-memory.ts';
import { appendLog } from '../../store/home/log.ts';
import { checkpointNow } from '../checkpoint-now.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';

/** True when the compaction is recovering from a context-limit error rather than preventing one. */
export function isReactiveCompaction(state: SessionState): boolean {
  const lastResponseLine = state.current?.lastLine ?? state.lastResponse?.lastLine ?? 0;
  return state.lastPromptTooLongLine !== null && state.lastPromptTooLongLine > lastResponseLine;
}

/** `user`: the compaction is blocked and the next session is to pick the handoff up. */
async function saveHandoff(
  home: string,
  checkpoint: Checkpoint,
  kind: 'pre_compact' | 'user',
  now: number,
  projectFiles: ProjectFilesSetting,
): Promise<string | null> {
  try {
    return await withStore(
      home,
      async (store) =>
        (await writeHandoff(store, home, { checkpoint, kind, detection: null, now, projectFiles }))
          .path,
    );
  } catch (error) {
    appendLog(home, 'error', 'PreCompact: handoff not written', { error: String(error) });
    return null;
  }
}

export async function handlePreCompact(run: HookRun): Promise<HookOutput> {
  const { payload, env, home, now, config, agent } = run;
  // A risky command's checkpoint still being built is older than this one: stored first.
  await finishPendingCheckpoints(home, env, run.agents, { wait: true });
  // shim's mod may have prepared this compaction already (session.compact): once is enough.
  let claim: { sessionId: string; key: string } | null = null;
  if (payload.transcriptPath && payload.sessionId) {
    const state = await loadSessionState(payload.transcriptPath, home, agent);
    claim = { sessionId: payload.sessionId, key: compactionClaimKey(state) };
    // Unwritable (a full or read-only SHIM_HOME): nobody holds it; the attempt below fails and
    // is logged, and the statusline says shim cannot save.
    if (tryClaimOnce(home, claim.sessionId, claim.key) === 'taken') return {};
  }
  const saved = await checkpointNow(run, 'pre_compact', `${payload.trigger ?? 'auto'} compaction`);
  if (!saved) {
    // Nothing was saved: a second attempt at this compaction (a retried hook) may still save it.
    if (claim) releaseClaim(home, claim.sessionId, claim.key);
    return {};
  }
  const { checkpoint } = saved;
  const block =
    config.blockAutoCompact &&
    payload.trigger === 'auto' &&
    payload.transcriptPath !== null &&
    !isReactiveCompaction(await loadSessionState(payload.transcriptPath, home, agent));
  const handoffPath = await saveHandoff(
    home,
    checkpoint,
    block ? 'user' : 'pre_compact',
    now,
    config.projectFiles,
  );
  if (!block || !handoffPath) {
    return {
      compactInstructions: agent.hooks.compactInstructions(checkpoint),
    };
  }
  return {
    block:
      `shim saved checkpoint #${checkpoint.checkpointNumber} and a handoff (${handoffPath}) and blocked this auto-compaction ` +
      "(blockAutoCompact is on in shim's config). Start a new session in this project to continue from the handoff — it is picked up automatically — or run /compact.",
  };
}
