/**
 * The jobs the hooks start detached (`shim background <job>`, app/run-in-background.ts): a
 * checkpoint taken in the background, and the checkpoints promised before risky commands
 * (store/checkpoints/pending-checkpoints.ts). They run from dist/hook-heavy.cjs through the launcher's code
 * cache, not from the ES-module CLI, whose loading alone costs ~120 ms of CPU before any work —
 * on the cores the agent is using (docs/hot-path.md).
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCheckpoint } from '../app/checkpoint/create-checkpoint.ts';
import { finishPendingCheckpoints } from '../app/checkpoint/finish-pending-checkpoints.ts';
import { useBundleLoader, type BundleLoader } from '../app/load-bundle.ts';
import { CHECKPOINT_TRIGGERS, type CheckpointTrigger } from '../core/checkpoint/checkpoint.ts';
import { getShimHome, type Env } from '../store/home/home.ts';
import { appendLog } from '../store/home/log.ts';

async function checkpointJob(args: string[], env: Env, home: string): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      transcript: { type: 'string' },
      trigger: { type: 'string' },
      reason: { type: 'string' },
    },
  });
  const trigger = values.trigger as CheckpointTrigger | undefined;
  if (!values.transcript || !trigger || !CHECKPOINT_TRIGGERS.includes(trigger))
    throw new Error(`background checkpoint needs --transcript and a known --trigger`);
  // The agent is told by the log's name, as in the hook that started this (its payload names the
  // agent's own file): no adapter is loaded to sniff the content.
  await createCheckpoint({
    transcript: resolve(values.transcript),
    cwd: process.cwd(),
    env,
    home,
    now: Date.now(),
    trigger,
    reason: values.reason ?? null,
  });
}

/** Runs one job; a failure is logged (the checkpoint's own failure is recorded where users look). */
export async function runBackgroundJob(args: string[], loadBundle?: BundleLoader): Promise<void> {
  if (loadBundle) useBundleLoader(loadBundle);
  const env = process.env;
  const home = getShimHome(env);
  const [job, ...rest] = args;
  try {
    if (job === 'finish-pending') {
      const done = await finishPendingCheckpoints(home, env);
      process.exitCode = done.failed.length > 0 ? 1 : 0;
    } else if (job === 'checkpoint') {
      await checkpointJob(rest, env, home);
      process.exitCode = 0;
    } else {
      process.stderr.write(
        `shim background: "${job ?? ''}" is not a job (the hooks start these themselves)\n`,
      );
      process.exitCode = 2;
    }
  } catch (error) {
    appendLog(home, 'error', `background ${job ?? ''} failed`, { error: String(error) });
    process.exitCode = 1;
  }
}
