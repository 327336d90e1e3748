/**
 * The session as a hook sees it: the transcript folded through the cursor cache, assessed with
 * the user's config, the cached compaction history (never a scan on the hook path) and the
 * window size the statusline last reported.
 * @module
 */
import { existsSync } from 'node:fs';
import type { Assessment } from '../core/assess.ts';
import type { SessionState } from '../core/session.ts';
import { assessInsideClaudeCode } from '../app/assess-live-session.ts';
import { loadSessionStateAt } from '../app/read-session.ts';
import type { ShimConfig } from '../store/config.ts';
import type { HookMemory } from '../core/hook-policy.ts';
import type { HookRun } from './hook-run.ts';

export type HookContext = {
  state: SessionState;
  /** Transcript bytes folded into `state` (null for a compressed transcript). */
  offset: number | null;
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
  const { state, offset } = await loadSessionStateAt(payload.transcriptPath, home);
  const assessment = assessInsideClaudeCode(state, {
    home,
    env,
    now,
    config,
    sessionId: payload.sessionId,
    memory,
  });
  return { state, offset, assessment, config };
}
