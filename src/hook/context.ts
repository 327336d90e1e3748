/**
 * The session as a hook sees it: the transcript folded through the cursor cache, assessed with
 * the user's config, the cached compaction history (never a scan on the hook path) and the
 * window size the statusline last reported.
 * @module
 */
import { existsSync } from 'node:fs';
import { assessSession, type Assessment } from '../core/assess.ts';
import type { SessionState } from '../core/session.ts';
import { loadCompactHistory } from '../claude/compact-history.ts';
import { loadSessionState } from '../app/status.ts';
import type { ShimConfig } from '../store/config.ts';
import { readStatuslineFigures } from '../store/statusline-figures.ts';
import type { HookMemory } from '../core/hook-policy.ts';
import type { HookRun } from './hook-run.ts';

export type HookContext = {
  state: SessionState;
  assessment: Assessment;
  config: ShimConfig;
};

export async function loadHookContext(
  run: HookRun,
  memory?: HookMemory,
): Promise<HookContext | null> {
  const { payload, env, home, now, config } = run;
  // Claude Code writes the transcript asynchronously: early events can come before the file.
  if (!payload.transcriptPath || !existsSync(payload.transcriptPath)) return null;
  const state = await loadSessionState(payload.transcriptPath, home);
  const figures = readStatuslineFigures(home, payload.sessionId, now);
  const history = config.learnFromHistory
    ? loadCompactHistory(home, { env, maxAgeMs: Number.POSITIVE_INFINITY })
    : [];
  const assessment = assessSession(state, {
    env,
    history,
    now,
    levels: config.levels,
    risk: config.risk,
    reportedWindow: figures?.windowTokens ?? null,
    // Counted from the hooks' own last checkpoint: the store is not opened on this path.
    ...(memory &&
    memory.lastCheckpointAt !== null &&
    memory.toolCallsAtCheckpoint <= state.toolCalls
      ? { toolCallsSinceCheckpoint: state.toolCalls - memory.toolCallsAtCheckpoint }
      : {}),
  });
  return { state, assessment, config };
}
