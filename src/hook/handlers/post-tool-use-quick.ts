/**
 * PostToolUse without a look at the session: while shim's mod watches it (the mod did the
 * watching; only its note for the model is handed over), or inside the quiet window the last
 * full look granted (core/policy/quiet-window.ts). Small on purpose: bin/shim.cjs runs it from a bundle
 * of its own (dist/hook-quick.cjs) and loads the full hook only when this has no answer.
 * @module
 */
import type { HookMemory } from '../../core/policy/hook-policy.ts';
import { countToolCall } from '../../app/session/count-tool-call.ts';
import { claimOnce, loadHookMemory } from '../../store/cache/hook-memory.ts';
import { isModWatching, loadModWatch, type ModWatch } from '../../store/cache/mod-watch.ts';
import type { QuickRun } from '../hook-run.ts';
import type { HookOutput } from '../../agents/agent.ts';
import { noteEndedCall, shellCall } from '../shell-calls.ts';
import { mayChangeWork } from '../../core/checkpoint/checkpoint-timing.ts';

/** The answer when no look is needed; null when the full hook must look. */
export async function answerWithoutLooking(run: QuickRun): Promise<HookOutput | null> {
  const { payload, home, now } = run;
  if (!payload.sessionId) return {};
  const memory = loadHookMemory(home, payload.sessionId);
  // shim's mod sees every response as it happens and judges the usage; the hook still counts the
  // finished calls (the mod's report of a response can come before the transcript shows its
  // calls, or not at all once the session ends) and takes the checkpoints the count calls for.
  const watch = loadModWatch(home, payload.sessionId);
  if (isModWatching(watch, now)) {
    // A command's end, for the session's command watch (the full hook takes it out otherwise).
    noteEndedCall(run);
    await countToolCall({
      home,
      env: run.env,
      now,
      config: run.config,
      sessionId: payload.sessionId,
      session: { ...payload, agent: run.agent.id },
      memory,
    });
    return deliverModGuidance(home, payload.sessionId, watch);
  }
  // Nothing is written inside the window: the calls it covers are counted from the transcript
  // (the next full look counts them too), so a quiet call costs no file write (docs/hot-path.md).
  if (!staysQuiet(run, memory)) return null;
  noteEndedCall(run);
  return {};
}

/**
 * A call of one of the agent's milestone tools, except a shell command that can change no work
 * (`ls`, `cat`, `rg`: core/checkpoint/checkpoint-timing.ts `mayChangeWork`), which most of a
 * Codex or Gemini session's calls are.
 */
function mayBeMilestone(run: QuickRun): boolean {
  const { payload, agent } = run;
  if (!payload.toolName || !agent.capabilities.milestoneTools.test(payload.toolName)) return false;
  const call = shellCall(run);
  return call === null || mayChangeWork(call.command);
}

/** The mod's note for the model at a level it reached, once. */
function deliverModGuidance(home: string, sessionId: string, watch: ModWatch): HookOutput {
  const guidance = watch.guidance;
  if (!guidance || !claimOnce(home, sessionId, `guidance-${guidance.key}`)) return {};
  return { context: guidance.text };
}

/**
 * True when this call falls inside the quiet window the last full look granted: a successful
 * call of an ordinary tool, and the transcript since then holds nothing eventful and no response
 * whose context reaches the window's bound.
 */
function staysQuiet(run: QuickRun, memory: HookMemory): boolean {
  const { payload, now, agent } = run;
  const quiet = memory.quiet;
  if (!quiet || quiet.callsLeft < 1 || now >= quiet.until) return false;
  if (payload.event !== 'PostToolUse' || !payload.toolName || !payload.transcriptPath) return false;
  if (mayBeMilestone(run)) return false;
  // A window granted while no file had changed may hold a checkpoint only that look would take.
  if (memory.timing?.unsaved === false && agent.capabilities.fileTools.test(payload.toolName))
    return false;
  const look = agent.log.tail(payload.transcriptPath, quiet.offset);
  if (look === null) return false;
  return (
    !look.eventful &&
    // This call's own request is in the tail: the calls since the full look, this one included.
    look.toolCalls <= quiet.callsLeft &&
    (look.contextTokens === null || look.contextTokens < quiet.tokensBelow)
  );
}
