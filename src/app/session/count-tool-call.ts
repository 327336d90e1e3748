/**
 * One more finished tool call while shim's mod watches a session: the count the interval and time
 * checkpoints go by, and that checkpoint when it is due (started detached). The PostToolUse hook
 * counts here when it runs; where the mod answers that event itself (no process), the mod reports
 * the call to the MCP server, which counts here. The claim key is the one the mod's step decisions
 * use for the same call, so the two never take a slot twice.
 * @module
 */
import { dueByCount, type HookMemory } from '../../core/policy/hook-policy.ts';
import { checkpointPolicyOf } from '../../core/policy/checkpoint-policy.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { claimCheckpointSlot, saveHookMemory } from '../../store/cache/hook-memory.ts';
import { checkpointInBackground, type SessionPlace } from '../run-in-background.ts';
import type { AgentId } from '../../core/agent-id.ts';

export type CountedCall = { toolCalls: number; checkpoint: string | null };

export async function countToolCall(request: {
  home: string;
  env: Env;
  now: number;
  config: ShimConfig;
  sessionId: string;
  session: SessionPlace & { agent: AgentId };
  memory: HookMemory;
}): Promise<CountedCall> {
  const { home, env, now, config, sessionId, memory } = request;
  const toolCalls = memory.hookToolCalls + 1;
  // The session's first checkpoint, as the PostToolUse decision takes it (hook-policy.ts), when
  // no step report has: the transcript may not show the first call yet when the mod reports its
  // response, and the interval would then count from a later first checkpoint.
  // Under `timing: "changes"` a call counted unseen cannot say whether it changed a file: the
  // next look that sees it decides (hook-policy.ts).
  const policy = checkpointPolicyOf(config.checkpoints);
  const due =
    (policy.timing === 'changes' ? null : dueByCount(memory, toolCalls, now, policy)) ??
    (memory.lastCheckpointAt === null
      ? { trigger: 'session_start' as const, reason: 'first checkpoint of the session' }
      : null);
  const claimed =
    due !== null &&
    claimCheckpointSlot(
      home,
      sessionId,
      { compactions: memory.epoch, toolCalls, trigger: due.trigger },
      false,
    ) !== null;
  saveHookMemory(home, sessionId, {
    ...memory,
    hookToolCalls: toolCalls,
    ...(claimed ? { lastCheckpointAt: now, toolCallsAtCheckpoint: toolCalls } : {}),
  });
  if (!claimed) return { toolCalls, checkpoint: null };
  await checkpointInBackground(request.session, due.trigger, due.reason, env, home);
  return { toolCalls, checkpoint: due.reason };
}
