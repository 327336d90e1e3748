/**
 * Checkpoints taken by hooks: in-process when the event must not proceed without one
 * (PreCompact, a risky command, SessionEnd, the danger zone), otherwise in a detached
 * background process so the agent does not wait for git and redaction.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { CheckpointResult } from '../app/create-checkpoint.ts';
import type { CheckpointTrigger } from '../core/checkpoint.ts';
import type { Env } from '../store/home.ts';
import { appendLog } from '../store/log.ts';
import type { HookPayload } from './payload.ts';

export async function checkpointNow(
  payload: HookPayload,
  trigger: CheckpointTrigger,
  reason: string,
  env: Env,
  home: string,
  now: number,
): Promise<CheckpointResult | null> {
  if (!payload.transcriptPath) return null;
  try {
    const { createCheckpoint } = await import('../app/create-checkpoint.ts');
    return await createCheckpoint({
      transcript: payload.transcriptPath,
      cwd: payload.cwd ?? process.cwd(),
      env,
      home,
      now,
      trigger,
      reason,
    });
  } catch (error) {
    appendLog(home, 'error', `${payload.event}: checkpoint failed`, {
      sessionId: payload.sessionId,
      error: String(error),
    });
    return null;
  }
}

/** Starts `shim checkpoint` detached; the hook returns at once. */
export function checkpointInBackground(
  payload: HookPayload,
  trigger: CheckpointTrigger,
  reason: string,
  env: Env,
  home: string,
): void {
  const bin = process.argv[1];
  if (!payload.transcriptPath || !bin) return;
  try {
    const child = spawn(
      process.execPath,
      [
        bin,
        'checkpoint',
        '--transcript',
        payload.transcriptPath,
        '--trigger',
        trigger,
        '--reason',
        reason,
      ],
      {
        // The session's directory may not exist here (a moved project): spawn would fail in it.
        cwd: payload.cwd && existsSync(payload.cwd) ? payload.cwd : process.cwd(),
        env: { ...env, SHIM_HOME: home },
        detached: true,
        stdio: 'ignore',
      },
    );
    child.on('error', (error) =>
      appendLog(home, 'error', 'background checkpoint did not start', { error: String(error) }),
    );
    child.unref();
  } catch (error) {
    appendLog(home, 'error', 'background checkpoint did not start', { error: String(error) });
  }
}
