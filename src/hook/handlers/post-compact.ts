/** PostCompact: notes the compaction in the session record (the restore happens at SessionStart). */
import { withStore } from '../../app/open-store.ts';
import type { HookOutput } from '../output.ts';
import type { HookRun } from '../hook-run.ts';

export async function handlePostCompact({ payload, home, now }: HookRun): Promise<HookOutput> {
  if (!payload.sessionId) return {};
  const sessionId = payload.sessionId;
  await withStore(home, ({ sessions }) =>
    sessions.touch(
      { sessionId, transcriptPath: payload.transcriptPath, cwd: payload.cwd },
      new Date(now).toISOString(),
    ),
  );
  return {};
}
