/**
 * A turn that ended on a usage limit leaves a handoff (app/restore/limit-handoff.ts), written by the
 * first of StopFailure (when Claude Code sends it) and SessionEnd (which reads the transcript's
 * error entry: `-p` runs send no StopFailure) — once: a session with a handoff of this kind not
 * yet picked up gets no second one.
 * @module
 */
import { withStore } from '../app/open-store.ts';
import { writeLimitHandoff } from '../app/restore/limit-handoff.ts';
import { appendLog } from '../store/home/log.ts';
import type { HookRun } from './hook-run.ts';

export async function handOffAtLimit(
  run: HookRun,
  errorText: string,
): Promise<{ path: string; line: string } | null> {
  const { payload, home, env, now } = run;
  if (!payload.sessionId || !payload.transcriptPath) return null;
  const sessionId = payload.sessionId;
  try {
    const pending = await withStore(home, (store) =>
      store.handoffs.getPendingLimitHandoff(sessionId),
    );
    if (pending) return null;
    const written = await writeLimitHandoff({
      home,
      env,
      log: { path: payload.transcriptPath, agent: run.agent },
      cwd: payload.cwd ?? process.cwd(),
      errorText,
      now,
    });
    appendLog(home, 'info', 'usage limit: handoff written', { sessionId, path: written.path });
    return written;
  } catch (error) {
    appendLog(home, 'error', `${payload.event}: the usage-limit handoff was not written`, {
      sessionId,
      error: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
}
