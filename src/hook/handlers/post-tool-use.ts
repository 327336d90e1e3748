/**
 * PostToolUse / PostToolUseFailure: fold what the transcript gained, decide (checkpoint?
 * alert?), and tell the user and the model once per level reached.
 * @module
 */
import { getModelGuidance, getUserAlert, isCompactionDue } from '../../core/alerts.ts';
import { decideAfterToolUse } from '../../core/hook-policy.ts';
import { checkpointInBackground } from '../../app/run-in-background.ts';
import { loadHeavy } from '../load-heavy.ts';
import { findAgentPid } from '../../capture/agent-process.ts';
import { loadHookContext } from '../context.ts';
import { claimOnce, loadHookMemory, saveHookMemory } from '../../store/hook-memory.ts';
import { isModWatching, loadModWatch, type ModWatch } from '../../store/mod-watch.ts';
import type { HookOutput } from '../output.ts';
import type { HookRun } from '../hook-run.ts';

export async function handlePostToolUse(run: HookRun): Promise<HookOutput> {
  const { payload, env, home, now, config } = run;
  if (!payload.sessionId) return {};
  // shim's mod sees every response as it happens: it does the watching, this call only hands the
  // model the note the mod cannot give (one watcher per session, nothing counted twice).
  const watch = loadModWatch(home, payload.sessionId);
  if (isModWatching(watch, now)) return deliverModGuidance(home, payload.sessionId, watch);
  const memory = loadHookMemory(home, payload.sessionId);
  const context = await loadHookContext(run, memory);
  if (!context) return {};
  // This event is itself a finished tool call, even before the transcript shows its result.
  const toolCalls = Math.max(context.state.toolCalls, memory.hookToolCalls + 1);
  const state = { ...context.state, toolCalls };
  const { assessment } = context;
  const decision = decideAfterToolUse(state, assessment, memory, now, {
    toolCallInterval: config.checkpoints.everyToolCalls,
    timeIntervalMs: config.checkpoints.everyMinutes * 60_000,
  });
  saveHookMemory(home, payload.sessionId, {
    ...decision.memory,
    hookToolCalls: toolCalls,
    agentPid: memory.agentPid ?? findAgentPid(),
  });

  let note = '';
  const checkpoint = decision.checkpoint;
  // Parallel tool calls run their hooks at once: one claim per checkpoint slot and per alert.
  if (
    checkpoint &&
    claimOnce(
      home,
      payload.sessionId,
      `ckpt-${state.compactionCount}-${state.toolCalls}-${checkpoint.trigger}`,
    )
  ) {
    if (checkpoint.urgent) {
      const heavy = await loadHeavy();
      const saved = await heavy.checkpointNow(
        payload,
        checkpoint.trigger,
        checkpoint.reason,
        env,
        home,
        now,
      );
      if (saved) {
        note = `Checkpoint #${saved.checkpoint.checkpointNumber} saved.`;
        const level = decision.alert === 'L2' || decision.alert === 'L3' ? decision.alert : null;
        if (level && (await heavy.writeLevelHandoff(home, saved.checkpoint, level, now)))
          note += ' Handoff written.';
      }
    } else {
      await checkpointInBackground(payload, checkpoint.trigger, checkpoint.reason, env, home);
      note = 'A checkpoint is being saved.';
    }
  }
  if (
    !decision.alert ||
    !claimOnce(home, payload.sessionId, `alert-${state.compactionCount}-${decision.alert}`)
  )
    return {};
  return {
    userMessage: getUserAlert(decision.alert, assessment, note),
    context: isCompactionDue(assessment) ? null : getModelGuidance(decision.alert, assessment),
  };
}

/** The mod's note for the model at a level it reached, once. */
function deliverModGuidance(home: string, sessionId: string, watch: ModWatch): HookOutput {
  const guidance = watch.guidance;
  if (!guidance || !claimOnce(home, sessionId, `guidance-${guidance.key}`)) return {};
  return { context: guidance.text };
}
