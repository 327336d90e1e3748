/**
 * PreCompact: a checkpoint and a handoff document before the compaction runs. Opt-in
 * (`blockAutoCompact` in config.json): block a proactive auto-compaction once they are saved,
 * so the user can continue in a fresh session instead. Never blocks a reactive one — Claude
 * Code is then recovering from a context-limit error and blocking would fail the request.
 * @module
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSessionState } from '../../app/status.ts';
import { renderHandoff } from '../../core/handoff.ts';
import type { Checkpoint } from '../../core/checkpoint.ts';
import type { SessionState } from '../../core/session.ts';
import { loadConfig } from '../../store/config.ts';
import { ensureDir } from '../../store/home.ts';
import { appendLog } from '../../store/log.ts';
import { checkpointNow } from '../checkpoint-now.ts';
import type { HookOutput } from '../output.ts';
import type { HookRun } from '../run.ts';

/** True when the compaction is recovering from a context-limit error rather than preventing one. */
export function isReactiveCompaction(state: SessionState): boolean {
  const lastResponseLine = state.current?.lastLine ?? state.lastResponse?.lastLine ?? 0;
  return state.lastPromptTooLongLine !== null && state.lastPromptTooLongLine > lastResponseLine;
}

function writeHandoff(home: string, checkpoint: Checkpoint): string | null {
  try {
    const path = join(
      ensureDir(home, 'handoffs'),
      `${checkpoint.sessionId}-${String(checkpoint.checkpointNumber).padStart(3, '0')}.md`,
    );
    writeFileSync(path, `${renderHandoff(checkpoint, null)}\n`, { mode: 0o600 });
    return path;
  } catch (error) {
    appendLog(home, 'error', 'PreCompact: handoff not written', { error: String(error) });
    return null;
  }
}

export async function handlePreCompact({ payload, env, home, now }: HookRun): Promise<HookOutput> {
  const saved = await checkpointNow(
    payload,
    'pre_compact',
    `${payload.trigger ?? 'auto'} compaction`,
    env,
    home,
    now,
  );
  if (!saved) return {};
  const { checkpoint } = saved;
  const handoffPath = writeHandoff(home, checkpoint);
  const config = await loadConfig(home);
  if (
    !config.blockAutoCompact ||
    payload.trigger !== 'auto' ||
    !handoffPath ||
    !payload.transcriptPath
  )
    return {};
  if (isReactiveCompaction(await loadSessionState(payload.transcriptPath, home))) return {};
  return {
    block:
      `shim saved checkpoint #${checkpoint.checkpointNumber} and a handoff (${handoffPath}) and blocked this auto-compaction ` +
      "(blockAutoCompact is on in shim's config). Start a new session to continue from the handoff — it resumes automatically — or run /compact.",
  };
}
