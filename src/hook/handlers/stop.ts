/** Stop: above 50% of the threshold, suggest a handoff to the user — once per 10% band. */
import { loadHookContext } from '../context.ts';
import { loadHookMemory, saveHookMemory } from '../../store/hook-memory.ts';
import type { HookOutput } from '../../agents/claude/hook-output.ts';
import type { HookRun } from '../hook-run.ts';

export async function handleStop(run: HookRun): Promise<HookOutput> {
  const { payload, home } = run;
  const context = await loadHookContext(run);
  if (!context || !payload.sessionId || context.assessment.percent < 50) return {};
  const band = Math.floor(context.assessment.percent / 10);
  const memory = loadHookMemory(home, payload.sessionId);
  if (band <= memory.stopNoticeBand && memory.epoch === context.state.compactionCount) return {};
  saveHookMemory(home, payload.sessionId, {
    ...memory,
    stopNoticeBand: band,
    epoch: context.state.compactionCount,
  });
  const a = context.assessment;
  return {
    userMessage: `shim: context at ${Math.round(a.percent)}% of the auto-compact threshold (${a.level}). To continue in a fresh session without losing anything: run \`shim handoff\`, then start a new session in this project — it picks the handoff up.`,
  };
}
