/**
 * A checkpoint taken in the hook's own process, when the event must not proceed without one. The
 * hook hands over what it already read for the event (state, assessment, config): one reading.
 */
import {
  createCheckpoint,
  type CheckpointRequest,
  type CheckpointResult,
} from '../app/checkpoint/create-checkpoint.ts';
import type { CheckpointTrigger } from '../core/checkpoint/checkpoint.ts';
import { appendLog } from '../store/home/log.ts';
import type { HookRun } from './hook-run.ts';
import { noteStorageFailure } from './storage-notice.ts';

export async function checkpointNow(
  run: Pick<HookRun, 'payload' | 'env' | 'home' | 'now' | 'agent'>,
  trigger: CheckpointTrigger,
  reason: string,
  known?: CheckpointRequest['known'],
): Promise<CheckpointResult | null> {
  const { payload, env, home, now, agent } = run;
  if (!payload.transcriptPath) return null;
  try {
    return await createCheckpoint({
      log: { path: payload.transcriptPath, agent },
      cwd: payload.cwd ?? process.cwd(),
      env,
      home,
      now,
      trigger,
      reason,
      hotPath: true,
      ...(known ? { known } : {}),
    });
  } catch (error) {
    if (noteStorageFailure(home, `${payload.event}: checkpoint lost`, error, true)) return null;
    appendLog(home, 'error', `${payload.event}: checkpoint failed`, {
      sessionId: payload.sessionId,
      error: String(error),
    });
    return null;
  }
}
