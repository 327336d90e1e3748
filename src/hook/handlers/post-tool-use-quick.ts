/**
 * PostToolUse without a look at the session: while shim's mod watches it (the mod did the
 * watching; only its note for the model is handed over), or inside the quiet window the last
 * full look granted (core/quiet-window.ts). Small on purpose: bin/shim.cjs runs it from a bundle
 * of its own (dist/hook-quick.cjs) and loads the full hook only when this has no answer.
 * @module
 */
import type { HookMemory } from '../../core/hook-policy.ts';
import { claimOnce, loadHookMemory, saveHookMemory } from '../../store/hook-memory.ts';
import { isModWatching, loadModWatch, type ModWatch } from '../../store/mod-watch.ts';
import { lookAtTail, readTail } from '../../transcript/tail-look.ts';
import type { HookRun } from '../hook-run.ts';
import type { HookOutput } from '../output.ts';
import type { HookPayload } from '../payload.ts';

/** The answer when no look is needed; null when the full hook must look. */
export function answerWithoutLooking(run: HookRun): HookOutput | null {
  const { payload, home, now } = run;
  if (!payload.sessionId) return {};
  // shim's mod sees every response as it happens: one watcher per session, nothing counted twice.
  const watch = loadModWatch(home, payload.sessionId);
  if (isModWatching(watch, now)) return deliverModGuidance(home, payload.sessionId, watch);
  const memory = loadHookMemory(home, payload.sessionId);
  if (!staysQuiet(payload, memory, now)) return null;
  saveHookMemory(home, payload.sessionId, {
    ...memory,
    hookToolCalls: memory.hookToolCalls + 1,
    quiet: { ...memory.quiet, callsLeft: memory.quiet.callsLeft - 1 },
  });
  return {};
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
