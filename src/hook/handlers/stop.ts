/** Stop: above 50% of the threshold, suggest a handoff to the user — once per 10% band. */
import { loadHookContext, RESPONSE_WAIT_MS } from '../context.ts';
import { loadHookMemory, saveHookMemory } from '../../store/cache/hook-memory.ts';
import { inEpoch } from '../../core/policy/hook-policy.ts';
import { loadDeferral } from '../../store/cache/deferral-file.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';

export async function handleStop(run: HookRun): Promise<HookOutput> {
  const { payload, home } = run;
  const context = await loadHookContext(run, undefined, { waitMs: RESPONSE_WAIT_MS });
  // The turn's last response not on disk yet: the percentage would be the one before it.
  if (!context?.current || !payload.sessionId || context.assessment.percent < 50) return {};
  const band = Math.floor(context.assessment.percent / 10);
  const memory = inEpoch(loadHookMemory(home, payload.sessionId), context.state.compactionCount);
  if (band <= memory.stopNoticeBand) return {};
  // Held while the user finishes the task they deferred for (the deferral ends at L3).
  if (context.assessment.level !== 'L3' && loadDeferral(home, payload.sessionId)) return {};
  saveHookMemory(home, payload.sessionId, { ...memory, stopNoticeBand: band });
  const a = context.assessment;
  return {
    userMessage: `shim: context at ${Math.round(a.percent)}% of the auto-compact threshold (${a.level}). To continue in a fresh session without losing anything: run \`shim handoff\`, then start a new session in this project — it picks the handoff up.`,
  };
}
