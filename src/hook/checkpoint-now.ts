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
import type { Env } from '../store/home/home.ts';
import { appendLog } from '../store/home/log.ts';
import type { HookPayload } from '../agents/agent.ts';
import { noteStorageFailure } from './storage-notice.ts';

export async function checkpointNow(
  payload: HookPayload,
  trigger: CheckpointTrigger,
  reason: string,
  env: Env,
  home: string,
  now: number,
  known?: CheckpointRequest['known'],
): Promise<CheckpointResult | null> {
  if (!payload.transcriptPath) return null;
  try {
    return await createCheckpoint({
      transcript: payload.transcriptPath,
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
