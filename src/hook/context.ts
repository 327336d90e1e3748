/**
 * The session as a hook sees it: the transcript folded through the cursor cache, assessed with
 * the user's config, the cached compaction history (never a scan on the hook path) and the
 * window size the statusline last reported.
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import type { Assessment } from '../core/context/assess.ts';
import type { SessionState } from '../core/session.ts';
import { assessInsideAgent } from '../app/session/assess-live-session.ts';
import { loadSessionStateAt } from '../app/session/read-session.ts';
import type { ShimConfig } from '../store/config/config.ts';
import type { HookMemory } from '../core/policy/hook-policy.ts';
import type { HookRun } from './hook-run.ts';
import { holdsHookResponse } from './hook-response.ts';

export type HookContext = {
  state: SessionState;
  /** Transcript bytes folded into `state` (null for a compressed transcript). */
  offset: number | null;
  assessment: Assessment;
  config: ShimConfig;
  /**
   * false when the response the event is about is not on disk yet (hook-response.ts): the
   * assessment then rests on an older response and must not decide a level.
   */
  current: boolean;
};

/**
 * How long a hook waits for the response it is about to reach the log. The agent writes it as
 * the response ends; past this the hook decides nothing rather than decide on the
 * response before. Only a hook that finds it missing waits.
 */
export const RESPONSE_WAIT_MS = 300;
const POLL_MS = 15;

export async function loadHookContext(
  run: HookRun,
  memory?: HookMemory,
  options: { waitMs?: number } = {},
): Promise<HookContext | null> {
  const { payload, env, home, now, config, agent } = run;
  // Agents write their logs asynchronously: early events can come before the file.
  if (!payload.transcriptPath || !existsSync(payload.transcriptPath)) return null;
  const path = payload.transcriptPath;
  // What the event read already (HookRun.read) is not read again: one reading per event.
  let { state, offset } = run.read ?? (await loadSessionStateAt(path, home, agent));
  let current = holdsHookResponse(state, payload) !== false;
  const deadline = Date.now() + (options.waitMs ?? 0);
  while (!current && Date.now() < deadline) {
    await pause(POLL_MS);
    // Only a grown file can hold it; the cursor makes the fold read the new bytes alone.
    if (offset !== null && sizeOf(path) <= offset) continue;
    ({ state, offset } = await loadSessionStateAt(path, home, agent));
    current = holdsHookResponse(state, payload) !== false;
  }
  const assessment = assessInsideAgent(agent, state, {
    home,
    env,
    now,
    config,
    sessionId: payload.sessionId,
    memory,
  });
  return { state, offset, assessment, config, current };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
