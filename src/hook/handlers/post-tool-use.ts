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
import { getQuietWindow } from '../../core/quiet-window.ts';
import type { HookMemory } from '../../core/hook-policy.ts';
import type { HookPayload } from '../payload.ts';
import { lookAtTail, readTail } from '../../transcript/tail-look.ts';

export async function handlePostToolUse(run: HookRun): Promise<HookOutput> {
  const { payload, env, home, now, config } = run;
  if (!payload.sessionId) return {};
  // shim's mod sees every response as it happens: it does the watching, this call only hands the
  // model the note the mod cannot give (one watcher per session, nothing counted twice).
  const watch = loadModWatch(home, payload.sessionId);
  if (isModWatching(watch, now)) return deliverModGuidance(home, payload.sessionId, watch);
  const memory = loadHookMemory(home, payload.sessionId);
  if (staysQuiet(payload, memory, now)) {
    saveHookMemory(home, payload.sessionId, {
      ...memory,
      hookToolCalls: memory.hookToolCalls + 1,
      quiet: { ...memory.quiet, callsLeft: memory.quiet.callsLeft - 1 },
    });
    return {};
  }
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

/** The mod's note for the model at a level it reached, once. */
function deliverModGuidance(home: string, sessionId: string, watch: ModWatch): HookOutput {
  const guidance = watch.guidance;
  if (!guidance || !claimOnce(home, sessionId, `guidance-${guidance.key}`)) return {};
  return { context: guidance.text };
}

/** Tools whose call may be a milestone (a commit, a test run, a task finished): a full look. */
const MAY_BE_MILESTONE = /^(?:Bash|Task|Todo)/;

/**
 * True when this call falls inside the quiet window the last full look granted: a successful
 * call of an ordinary tool, and the transcript since then holds nothing eventful and no response
 * whose context reaches the window's bound.
 */
function staysQuiet(
  payload: HookPayload,
  memory: HookMemory,
  now: number,
): memory is HookMemory & { quiet: NonNullable<HookMemory['quiet']> } {
  const quiet = memory.quiet;
  if (!quiet || quiet.callsLeft < 1 || now >= quiet.until) return false;
  if (payload.event !== 'PostToolUse' || !payload.toolName || !payload.transcriptPath) return false;
  if (MAY_BE_MILESTONE.test(payload.toolName)) return false;
  const tail = readTail(payload.transcriptPath, quiet.offset);
  if (tail === null) return false;
  const look = lookAtTail(tail);
  return !look.eventful && (look.contextTokens === null || look.contextTokens < quiet.tokensBelow);
}
