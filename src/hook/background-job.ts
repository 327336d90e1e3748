/**
 * The jobs the hooks start detached (`shim background <job>`, app/run-in-background.ts): a
 * checkpoint taken in the background, the checkpoints promised before risky commands
 * (store/checkpoints/pending-checkpoints.ts), and a session's command watch with a team store
 * (app/checkpoint/running-command-watch.ts), and the pass that looks for what the home learned
 * in every session's rows (app/checkpoint/redact-stored-session.ts). They run from dist/hook-heavy.cjs through the launcher's code
 * cache, not from the ES-module CLI, whose loading alone costs ~120 ms of CPU before any work —
 * on the cores the agent is using (docs/hot-path.md).
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCheckpoint } from '../app/checkpoint/create-checkpoint.ts';
import { finishPendingCheckpoints } from '../app/checkpoint/finish-pending-checkpoints.ts';
import { watchRunningCommandsOf } from '../app/checkpoint/running-command-watch.ts';
import { spreadLearnedSecrets } from '../app/checkpoint/redact-stored-session.ts';
import { withStore } from '../app/open-store.ts';
import { useBundleLoader, type BundleLoader } from '../app/load-bundle.ts';
import { CHECKPOINT_TRIGGERS, type CheckpointTrigger } from '../core/checkpoint/checkpoint.ts';
import { getShimHome, type Env } from '../store/home/home.ts';
import { appendLog } from '../store/home/log.ts';
import { isAgentId } from '../core/agent-id.ts';
import type { Agents } from '../agents/agent.ts';

/** A job's options: each a string (`--name value`). */
function jobOptions<K extends string>(args: string[], names: readonly K[]) {
  const options = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
  return parseArgs({ args, options }).values as Partial<Record<K, string>>;
}

async function checkpointJob(
  args: string[],
  env: Env,
  home: string,
  agents: Agents,
): Promise<void> {
  const values = jobOptions(args, ['agent', 'transcript', 'trigger', 'reason']);
  const trigger = values.trigger as CheckpointTrigger | undefined;
  if (
    !values.transcript ||
    !trigger ||
    !CHECKPOINT_TRIGGERS.includes(trigger) ||
    !isAgentId(values.agent)
  )
    throw new Error(`background checkpoint needs --agent, --transcript and a known --trigger`);
  // The hook that started this knew its agent: the log is read with that agent's reader.
  await createCheckpoint({
    log: { path: resolve(values.transcript), agent: await agents.agent(values.agent) },
    cwd: process.cwd(),
    env,
    home,
    now: Date.now(),
    trigger,
    reason: values.reason ?? null,
  });
}

/** A session's command watch: commands still running shared with the team store. */
async function commandWatchJob(
  args: string[],
  env: Env,
  home: string,
  agents: Agents,
): Promise<void> {
  const values = jobOptions(args, ['agent', 'transcript', 'session']);
  if (!values.transcript || !values.session || !isAgentId(values.agent))
    throw new Error(`background command-watch needs --agent, --transcript and --session`);
  await watchRunningCommandsOf({
    agent: await agents.agent(values.agent),
    transcriptPath: resolve(values.transcript),
    sessionId: values.session,
    cwd: process.cwd(),
    env,
    home,
  });
}

/** What the home learned after row `--after` of its learned secrets, looked for in every session. */
async function spreadLearnedJob(args: string[], home: string): Promise<void> {
  const after = Number(jobOptions(args, ['after']).after);
  if (!Number.isInteger(after) || after < 0)
    throw new Error('background spread-learned needs --after <row id>');
  await withStore(home, (store) => spreadLearnedSecrets(store, home, after));
}

/** Runs one job; a failure is logged (the checkpoint's own failure is recorded where users look). */
export async function runBackgroundJob(
  args: string[],
  agents: Agents,
  loadBundle?: BundleLoader,
): Promise<void> {
  if (loadBundle) useBundleLoader(loadBundle);
  const env = process.env;
  const home = getShimHome(env);
  const [job, ...rest] = args;
  try {
    if (job === 'finish-pending') {
      const done = await finishPendingCheckpoints(home, env, agents);
      process.exitCode = done.failed.length > 0 ? 1 : 0;
    } else if (job === 'checkpoint') {
      await checkpointJob(rest, env, home, agents);
      process.exitCode = 0;
    } else if (job === 'spread-learned') {
      await spreadLearnedJob(rest, home);
      process.exitCode = 0;
    } else if (job === 'command-watch') {
      await commandWatchJob(rest, env, home, agents);
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
