/**
 * shim commands started detached, so the agent does not wait for them: checkpoints that can
 * happen in the background (in-process ones are for events that must not proceed without one:
 * PreCompact, a risky command, SessionEnd, the danger zone) and housekeeping.
 * @module
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { CheckpointTrigger } from '../core/checkpoint/checkpoint.ts';
import type { AgentId } from '../core/agent-id.ts';
import type { Env } from '../store/home/home.ts';
import { appendLog } from '../store/home/log.ts';
import { heldBy } from '../store/home/write-buffer.ts';

/** Where a session is: its transcript and the directory it runs in. */
export type SessionPlace = { transcriptPath: string | null; cwd: string | null };

/**
 * Starts a checkpoint detached (`shim background checkpoint`); the caller returns at once. The
 * agent goes with it: the job reads the log with that agent's reader, never guessing from the
 * file's name. `now`: started before this returns even where starts are held (a level's
 * checkpoint, whose claim is settled once it has started).
 */
export async function checkpointInBackground(
  session: SessionPlace & { agent: AgentId },
  trigger: CheckpointTrigger,
  reason: string,
  env: Env,
  home: string,
  options: { now?: boolean } = {},
): Promise<void> {
  if (!session.transcriptPath) return;
  await runShimInBackground(
    [
      'background',
      'checkpoint',
      '--agent',
      session.agent,
      '--transcript',
      session.transcriptPath,
      '--trigger',
      trigger,
      '--reason',
      reason,
    ],
    session.cwd,
    env,
    home,
    options,
  );
}

/**
 * Starts `shim <args>` detached (its own process group, no stdio); the caller returns at once.
 * False when nothing was started or held: this process is not the shim binary (a test runner or
 * a library caller), so its own entry is not shim and must not be started as one. Inside a write
 * buffer (the warm look's looks: store/home/write-buffer.ts) held there until its owner has
 * answered, unless `now`.
 */
export async function runShimInBackground(
  args: string[],
  cwd: string | null,
  env: Env,
  home: string,
  options: { now?: boolean } = {},
): Promise<boolean> {
  if (!isShimBinary()) return false;
  const buffer = heldBy();
  if (buffer && options.now !== true) buffer.holdJob(() => spawnShim(args, cwd, env, home));
  else await spawnShim(args, cwd, env, home);
  return true;
}

/** Only the shim binary starts shim processes (not a test runner or a library caller). */
export function isShimBinary(): boolean {
  const bin = basename(process.argv[1] ?? '');
  return bin === 'shim.cjs' || bin === 'shim' || bin === 'cli.js';
}

async function spawnShim(
  args: string[],
  cwd: string | null,
  env: Env,
  home: string,
): Promise<void> {
  const bin = process.argv[1];
  if (!bin) return;
  try {
    // Loaded here: most hook calls never spawn anything.
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [bin, ...args], {
      // The session's directory may not exist here (a moved project): spawn would fail in it.
      cwd: cwd && existsSync(cwd) ? cwd : process.cwd(),
      env: { ...env, SHIM_HOME: home },
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', (error) =>
      appendLog(home, 'error', `background shim ${args[0]} did not start`, {
        error: String(error),
      }),
    );
    child.unref();
  } catch (error) {
    appendLog(home, 'error', `background shim ${args[0]} did not start`, { error: String(error) });
  }
}
