/**
 * PostModelSwitch (2.1.330): a new model can bring another window (200k ↔ 1M) and so another
 * threshold. The session is re-levelled against the new model at once; when the context is
 * already past the new threshold, Claude Code compacts on the next request, so a checkpoint is
 * taken now and the user told. Alerts start over for the new window.
 * @module
 */
import { assessLiveSession } from '../../app/session/assess-live-session.ts';
import { getLevel, toPercent } from '../../core/context/level.ts';
import { formatTokens } from '../../core/format-tokens.ts';
import { loadSessionState } from '../../app/session/read-session.ts';
import { loadHookMemory, saveHookMemory } from '../../store/cache/hook-memory.ts';
import { loadHeavy } from '../load-heavy.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';

export async function handlePostModelSwitch(run: HookRun): Promise<HookOutput> {
  const { payload, env, home, now, config } = run;
  if (!payload.sessionId || !payload.toModel || !payload.transcriptPath) return {};
  const state = await loadSessionState(payload.transcriptPath, home, run.agent);
  // The statusline's window figure belongs to the old model: it is not passed on.
  const assessment = assessLiveSession(
    run.agent,
    { ...state, model: payload.toModel },
    { home, env, now, config, hotPath: true, inside: 'hook' },
  );
  const tokens = payload.contextTokens ?? assessment.contextTokens;
  const percent = toPercent(tokens, assessment.compactThreshold);
  const level = getLevel(percent, config.levels);
  const memory = loadHookMemory(home, payload.sessionId);
  saveHookMemory(home, payload.sessionId, { ...memory, alertedLevel: 'L0', stopNoticeBand: 0 });
  const where = `${payload.toModel}: compacts at ${formatTokens(assessment.compactThreshold)} of a ${formatTokens(assessment.windowTokens)} window`;
  if (!assessment.autoCompact || tokens < assessment.compactThreshold) {
    return {
      userMessage: `shim: switched to ${where}; the context (${formatTokens(tokens)}) is at ${Math.round(percent)}% (${level}).`,
    };
  }
  const saved = await (
    await loadHeavy()
  ).checkpointNow(
    run,
    'danger_zone',
    `model switch to ${payload.toModel}: context past its threshold`,
  );
  const note = saved ? ` Checkpoint #${saved.checkpoint.checkpointNumber} saved.` : '';
  return {
    userMessage: `🔴 shim: switched to ${where}; the context (${formatTokens(tokens)}) is already past it, so ${run.agent.name} compacts on the next request.${note} The work will be restored after compaction.`,
    context: `[shim] The model switch to ${payload.toModel} lowered the auto-compact threshold to ${formatTokens(assessment.compactThreshold)}; the context (${formatTokens(tokens)}) is past it and will be compacted on the next request. Progress is checkpointed and will be restored.`,
  };
}
