/**
 * SessionEnd: a final checkpoint, the clean end recorded with Claude Code's reason, and in the
 * background the daily clean-up of old checkpoints and what the session teaches about tasks
 * (`shim estimate --refresh`: only transcripts that changed are read).
 */
import { finishPendingCheckpoints } from '../../app/checkpoint/finish-pending-checkpoints.ts';
import { withStore } from '../../app/open-store.ts';
import { runShimInBackground } from '../../app/run-in-background.ts';
import { checkpointNow } from '../checkpoint-now.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';
import { handOffAtLimit } from '../limit-stop.ts';

export async function handleSessionEnd(run: HookRun): Promise<HookOutput> {
  const { payload, env, home, config } = run;
  if (!payload.sessionId) return {};
  const sessionId = payload.sessionId;
  const reason = payload.reason ?? 'other';
  // A risky command's checkpoint still being built comes first: the final one is the newest.
  await finishPendingCheckpoints(home, env, run.agents, { wait: true });
  // A -p run stopped by a usage limit sends no StopFailure: its transcript says so.
  const limit = payload.transcriptPath ? run.agent.log.usageLimit(payload.transcriptPath) : null;
  if (limit !== null && (await handOffAtLimit(run, limit))) {
    // the handoff's checkpoint is the final one
  } else {
    await checkpointNow(run, 'session_end', `session ended (${reason})`);
  }
  await withStore(home, ({ sessions }) =>
    sessions.end(sessionId, run.agent.id, reason, new Date(Date.now()).toISOString()),
  );
  // The daily clean-up (config `retention`), after the session, in its own process.
  if (config.retention.auto) await runShimInBackground(['gc', '--auto'], payload.cwd, env, home);
  await runShimInBackground(['estimate', '--refresh', '--json'], payload.cwd, env, home);
  return {};
}
