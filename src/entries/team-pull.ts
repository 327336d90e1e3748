/**
 * dist/team-pull.cjs — `shim team pull --quiet`, the child a starting session waits for
 * (app/team/pull-at-start.ts): no ES-module loader, no CLI parser, nothing but the pull; bin/shim.cjs
 * loads it with the code cache. pg and Kysely live here and in the CLI, never in a hook's bundle.
 * Its answer is the exit code (0: pulled); what went wrong goes to shim.log.
 * @module
 */
import { openStore } from '../app/open-store.ts';
import { pullTeamForProject } from '../app/team/team-sync.ts';
import { loadConfig } from '../store/config/config.ts';
import { getShimHome } from '../store/home/home.ts';
import { appendLog } from '../store/home/log.ts';

export async function main(): Promise<void> {
  const home = getShimHome();
  try {
    const config = await loadConfig(home, { lenient: true });
    const result = await pullTeamForProject({
      openStore: () => openStore(home),
      env: process.env,
      config,
      cwd: process.cwd(),
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
