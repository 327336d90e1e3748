/** PreToolUse (Bash): before a command that can destroy work, a checkpoint and git snapshot. Never blocks. */
import { detectRiskyCommand } from '../../core/risky-operation.ts';
import { loadHeavy } from '../load-heavy.ts';
import { claimOnce } from '../../store/hook-memory.ts';
import type { HookOutput } from '../../agents/claude/hook-output.ts';
import type { HookRun } from '../hook-run.ts';

export async function handlePreToolUse({
  payload,
  env,
  home,
  now,
  config,
}: HookRun): Promise<HookOutput> {
  const command = payload.toolInput?.command;
  if (payload.toolName !== 'Bash' || typeof command !== 'string' || !payload.sessionId) return {};
  const risky = detectRiskyCommand(command);
  if (!risky) return {};
  const useId = typeof payload.raw.tool_use_id === 'string' ? payload.raw.tool_use_id : String(now);
  if (!claimOnce(home, payload.sessionId, `risky-${useId}`)) return {};
  // The snapshot's git starts first and runs while the checkpoint code loads and reads the
  // session: the command waits for the longer of the two, not their sum (docs/hot-path.md).
  // Loaded here, not at the top: git's code needs node:child_process and the id node:crypto, ~4 ms
  // that every other event of this bundle (each PostToolUse's full look) must not pay.
  const { captureGitState } = await import('../../capture/git.ts');
  const checkpointId = globalThis.crypto.randomUUID();
  const git = payload.cwd
    ? { checkpointId, capture: captureGitState(payload.cwd, { snapshot: { checkpointId } }) }
    : undefined;
  const saved = await (
    await loadHeavy()
  ).checkpointNow(payload, 'risky_operation', `before ${risky}`, env, home, now, {
    config,
    ...(git ? { git } : {}),
  });
  if (!saved) return {};
  const snapshot = saved.checkpoint.fileState.snapshot ? ' with a git snapshot' : '';
  return {
    userMessage: `shim: checkpoint #${saved.checkpoint.checkpointNumber} saved${snapshot} before \`${risky}\` (undo: shim restore-files ${saved.checkpoint.id.slice(0, 8)}).`,
  };
}
