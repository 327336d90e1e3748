/** SessionEnd: a final checkpoint, and the clean end recorded with Claude Code's reason. */
import { withStore } from '../../app/open-store.ts';
import { checkpointNow } from '../checkpoint-now.ts';
import type { HookOutput } from '../output.ts';
import type { HookRun } from '../run.ts';

export async function handleSessionEnd({ payload, env, home, now }: HookRun): Promise<HookOutput> {
  if (!payload.sessionId) return {};
  const sessionId = payload.sessionId;
  const reason = payload.reason ?? 'other';
  await checkpointNow(payload, 'session_end', `session ended (${reason})`, env, home, now);
  await withStore(home, ({ sessions }) =>
    sessions.end(sessionId, reason, new Date(Date.now()).toISOString()),
  );
  return {};
}
