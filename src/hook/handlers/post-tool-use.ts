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
import type { HookOutput } from '../output.ts';
import type { HookRun } from '../hook-run.ts';
import { getQuietWindow } from '../../core/quiet-window.ts';
import { answerWithoutLooking } from './post-tool-use-quick.ts';

export async function handlePostToolUse(run: HookRun): Promise<HookOutput> {
  const { payload, env, home, now, config } = run;
  if (!payload.sessionId) return {};
  const quick = await answerWithoutLooking(run);
  if (quick) return quick;
  const memory = loadHookMemory(home, payload.sessionId);
  const context = await loadHookContext(run, memory);
  if (!context) return {};
  // This event is itself a finished tool call, even before the transcript shows its result.
  const toolCalls = Math.max(context.state.toolCalls, memory.hookToolCalls + 1);
  const state = { ...context.state, toolCalls };
  const { assessment } = context;
  const policy = {
    toolCallInterval: config.checkpoints.everyToolCalls,
    timeIntervalMs: config.checkpoints.everyMinutes * 60_000,
  };
  const decision = decideAfterToolUse(state, assessment, memory, now, policy);
  const quiet =
    context.offset === null
      ? null
      : getQuietWindow({
          assessment,
          memory: decision.memory,
          toolCalls,
          offset: context.offset,
          now,
          policy,
          levels: config.levels,
          risk: config.risk,
        });
  saveHookMemory(home, payload.sessionId, {
    ...decision.memory,
    hookToolCalls: toolCalls,
    agentPid: memory.agentPid ?? findAgentPid(),
    quiet,
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
