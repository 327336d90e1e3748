/**
 * PostToolUse / PostToolUseFailure: fold what the transcript gained, decide (checkpoint?
 * alert?), and tell the user and the model once per level reached.
 * @module
 */
import { getModelGuidance, getUserAlert, isCompactionDue } from '../../core/context/alerts.ts';
import { decideAfterToolUse, isClaimedUntilDone } from '../../core/policy/hook-policy.ts';
import { checkpointPolicyOf } from '../../core/policy/checkpoint-policy.ts';
import { checkpointInBackground } from '../../app/run-in-background.ts';
import { loadHeavy } from '../load-heavy.ts';
import { findAgentPid } from '../../capture/agent-process.ts';
import { loadHookContext, RESPONSE_WAIT_MS } from '../context.ts';
import {
  claimCheckpointSlot,
  claimOnce,
  claimUntilDone,
  loadHookMemory,
  saveHookMemory,
  settleClaim,
  settleClaimWithAnswer,
} from '../../store/cache/hook-memory.ts';
import { loadDeferral, storeDeferral } from '../../store/cache/deferral-file.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';
import { noteEndedCall } from '../shell-calls.ts';
import { getQuietWindow } from '../../core/policy/quiet-window.ts';
import { answerWithoutLooking } from './post-tool-use-quick.ts';
import { countToolCall } from '../../app/session/count-tool-call.ts';
import { appendLog } from '../../store/home/log.ts';
import type { SessionState } from '../../core/session.ts';
import type { Assessment } from '../../core/context/assess.ts';
import { getPhase } from '../../core/checkpoint/session-phase.ts';
import { checkTranscriptWrites } from '../transcript-alarm.ts';
import { isTeamConfigured } from '../../app/team/team-settings.ts';
import { RELAY_MODEL_NOTE, RELAY_USER_NOTE } from '../../core/policy/relay.ts';

/** Longer than a look without a wait takes on a quiet machine. */
const WAITED_MS = 10;

export async function handlePostToolUse(run: HookRun): Promise<HookOutput> {
  const { payload, env, home, now, config } = run;
  if (!payload.sessionId) return {};
  // A quick answer takes the call's end out itself (post-tool-use-quick.ts).
  const quick = run.quickAsked ? null : await answerWithoutLooking(run);
  if (quick) return quick;
  noteEndedCall(run);
  const before = loadHookMemory(home, payload.sessionId);
  const writes = checkTranscriptWrites(run, before);
  const lookedAt = Date.now();
  const context = await loadHookContext(run, before, { waitMs: RESPONSE_WAIT_MS });
  // A wait for the response gave the hooks of parallel calls (or the mod's server) time to move
  // the memory on: decide on what they saved, or their counts and alerts are written over.
  const memory =
    Date.now() - lookedAt > WAITED_MS ? loadHookMemory(home, payload.sessionId) : before;
  if (!context) {
    saveHookMemory(home, payload.sessionId, {
      ...memory,
      hookToolCalls: memory.hookToolCalls + 1,
      transcript: writes.watch,
    });
    return writes.notice ? { userMessage: writes.notice } : {};
  }
  // The response that made this call is not in the transcript yet: a level, a note or a level
  // checkpoint judged now would rest on the response before it (hook-response.ts). Count it.
  if (!context.current) {
    await countToolCall({
      home,
      env,
      now,
      config,
      sessionId: payload.sessionId,
      session: { ...payload, agent: run.agent.id },
      memory: { ...memory, transcript: writes.watch },
    });
    return writes.notice ? { userMessage: writes.notice } : {};
  }
  // This event is itself a finished tool call, even before the transcript shows its result: the
  // fold counts a call at its result, and calls answered inside the quiet window left the memory's
  // count behind, so a result not yet written is this call, counted here.
  const toolCalls = Math.max(
    context.state.toolCalls + (resultNotWritten(context.state, payload.raw) ? 1 : 0),
    memory.hookToolCalls + 1,
  );
  const state = { ...context.state, toolCalls };
  const { assessment } = context;
  const policy = checkpointPolicyOf(config.checkpoints, isTeamConfigured(config, env));
  // The user's "just one more task" (core/policy/deferral.ts): L1/L2 notices wait for it.
  const deferral = loadDeferral(home, payload.sessionId);
  const decision = decideAfterToolUse(state, assessment, memory, now, policy, deferral);
  if (decision.deferral !== deferral) storeDeferral(home, payload.sessionId, decision.deferral);
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
    agentPid: memory.agentPid ?? findAgentPid(run.parentPid),
    quiet,
    // Only a session with an issue shows it ([ISSUE: …] [PHASE: …]).
    phase: memory.issue ? getPhase(state, []) : null,
    transcript: writes.watch,
  });

  let note = '';
  const checkpoint = decision.checkpoint;
  // Parallel tool calls run their hooks at once: one claim per checkpoint slot and per alert. A
  // level's checkpoint (isClaimedUntilDone) and its notice are held until done: a warm look
  // killed mid-look leaves them to the hook that then looks itself (hook-memory.ts).
  const untilDone = checkpoint !== null && isClaimedUntilDone(checkpoint);
  const slot =
    checkpoint &&
    claimCheckpointSlot(
      home,
      payload.sessionId,
      {
        compactions: state.compactionCount,
        toolCalls: state.toolCalls,
        trigger: checkpoint.trigger,
      },
      untilDone,
    );
  if (checkpoint && slot) {
    if (checkpoint.urgent) {
      const heavy = await loadHeavy();
      // What this call read: no second fold, config load or assessment.
      const saved = await heavy.checkpointNow(run, checkpoint.trigger, checkpoint.reason, {
        state,
        assessment,
        config,
      });
      if (saved) {
        note = `Checkpoint #${saved.checkpoint.checkpointNumber} saved.`;
        const level = decision.alert === 'L2' || decision.alert === 'L3' ? decision.alert : null;
        if (
          level &&
          (await heavy.writeLevelHandoff(home, saved.checkpoint, level, now, config.projectFiles))
        )
          note += ' Handoff written.';
      }
      settleClaim(home, payload.sessionId, slot);
    } else {
      // Started before the answer when claimed until done (the warm look starts others after it).
      await checkpointInBackground(
        { ...payload, agent: run.agent.id },
        checkpoint.trigger,
        checkpoint.reason,
        env,
        home,
        { now: untilDone },
      );
      if (untilDone) settleClaim(home, payload.sessionId, slot);
      note = 'A checkpoint is being saved.';
    }
  }
  const tasks = await taskListNote(run, state, assessment);
  const alertKey = `alert-${state.compactionCount}-${decision.alert}`;
  if (!decision.alert || !claimUntilDone(home, payload.sessionId, alertKey))
    return withNotice(
      tasks ? { userMessage: tasks.user, context: tasks.model } : {},
      [decision.released, writes.notice].filter(Boolean).join('\n') || null,
    );
  const guidance = isCompactionDue(assessment)
    ? null
    : getModelGuidance(decision.alert, assessment);
  // Relay (config `relay`): at L3 a fresh context is offered instead of a compaction.
  const relay = decision.alert === 'L3' && config.relay;
  // Told with the answer: a warm look killed before answering leaves the notice to the hook.
  settleClaimWithAnswer(home, payload.sessionId, alertKey);
  return {
    userMessage: [
      decision.released,
      getUserAlert(decision.alert, assessment, note),
      relay ? RELAY_USER_NOTE : null,
      tasks?.user,
      writes.notice,
    ]
      .filter(Boolean)
      .join('\n'),
    context:
      [guidance, relay ? RELAY_MODEL_NOTE : null, tasks?.model].filter(Boolean).join('\n') || null,
  };
}

function withNotice(output: HookOutput, notice: string | null): HookOutput {
  if (!notice) return output;
  return { ...output, userMessage: [output.userMessage, notice].filter(Boolean).join('\n') };
}

/**
 * After a call that changed the task list: a note when its open tasks will not fit in what is
 * left, once per context window (EST-002).
 */
async function taskListNote(
  run: HookRun,
  state: SessionState,
  assessment: Assessment,
): Promise<{ user: string; model: string } | null> {
  const { payload, home } = run;
  const { taskChanges } = run.agent.capabilities;
  if (!payload.toolName || !taskChanges.test(payload.toolName) || !payload.sessionId) return null;
  try {
    const warning = (await loadHeavy()).warnAboutTasks({ home, state, assessment });
    return warning && claimOnce(home, payload.sessionId, `tasks-${state.compactionCount}`)
      ? warning
      : null;
  } catch (error) {
    appendLog(home, 'warn', 'PostToolUse: the task list could not be sized', {
      error: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
}

/** The transcript shows this call asked for (its id among the pending ones), not its result. */
function resultNotWritten(state: SessionState, raw: Record<string, unknown>): boolean {
  const id = raw.tool_use_id;
  return typeof id === 'string' && state.pendingTools.some((call) => call.id === id);
}
