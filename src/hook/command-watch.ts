/**
 * With a team store configured, a shell command's start makes sure the session has its command
 * watch (`shim background command-watch`, app/checkpoint/running-command-watch.ts): one detached
 * process per session, started only when none runs (a lock file read and a signal 0 otherwise).
 * It shares a command still running with the team store through a background checkpoint, so a
 * session killed mid-command leaves that command on the server (docs/team.md). Nothing here
 * opens a connection.
 * @module
 */
import { isShimBinary, runShimInBackground } from '../app/run-in-background.ts';
import { commandWatcher } from '../store/cache/command-watch-lock.ts';
import type { HookRun } from './hook-run.ts';

export async function watchRunningCommands(run: HookRun): Promise<void> {
  const { payload, home, env } = run;
  if (!payload.sessionId || !payload.transcriptPath || !isShimBinary()) return;
  if (commandWatcher(home, payload.sessionId) !== null) return;
  await runShimInBackground(
    [
      'background',
      'command-watch',
      '--agent',
      run.agent.id,
      '--transcript',
      payload.transcriptPath,
      '--session',
      payload.sessionId,
    ],
    payload.cwd,
    env,
    home,
  );
}
