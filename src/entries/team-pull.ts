/**
 * dist/team-pull.cjs — `shim team pull --quiet`, the child a starting session waits for
 * (app/team/pull-at-start.ts): no ES-module loader, no CLI parser, no query builder, nothing but
 * the pull on plain pg; bin/shim.cjs loads it with the code cache. pg lives here and in the CLI,
 * never in a hook's bundle. Its answer is the exit code (0: pulled), said on the session start's
 * pipe as soon as the work is in; what went wrong goes to shim.log.
 * @module
 */
import { tellPulled } from '../app/team/pull-at-start.ts';
import { pullTeamHere } from '../app/team/pull-for-project.ts';
import { getShimHome } from '../store/home/home.ts';
import { appendLog } from '../store/home/log.ts';

export async function main(): Promise<void> {
  const home = getShimHome();
  try {
    const { result } = await pullTeamHere({
      home,
      env: process.env,
      cwd: process.cwd(),
      onPulled: () => tellPulled(process.env),
    });
    if (result === null) {
      appendLog(home, 'warn', 'team pull: no team store connected, or team.resume is off');
      process.exitCode = 1;
    }
  } catch (error) {
    appendLog(home, 'error', 'team pull failed', { error: (error as Error).message });
    process.exitCode = 1;
  }
}
