/** PreCompact: a checkpoint and a handoff document before the compaction runs. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderHandoff } from '../../core/handoff.ts';
import { ensureDir } from '../../store/home.ts';
import { appendLog } from '../../store/log.ts';
import { checkpointNow } from '../checkpoint-now.ts';
import type { HookOutput } from '../output.ts';
import type { HookRun } from '../run.ts';

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
  try {
    const path = join(
      ensureDir(home, 'handoffs'),
      `${checkpoint.sessionId}-${String(checkpoint.checkpointNumber).padStart(3, '0')}.md`,
    );
    writeFileSync(path, `${renderHandoff(checkpoint, null)}\n`, { mode: 0o600 });
  } catch (error) {
    appendLog(home, 'error', 'PreCompact: handoff not written', { error: String(error) });
  }
  return {};
}
