/**
 * After a checkpoint, when a team store is configured: the background worker is started (one at
 * a time, detached) to queue and send it. Nothing here opens a connection or loads pg.
 * @module
 */
import type { ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { appendLog } from '../../store/home/log.ts';
import { startSyncWorker } from '../sync/enqueue-sync.ts';
import { isTeamConfigured } from './team-settings.ts';

export async function replicateSoon(request: {
  config: Pick<ShimConfig, 'team'>;
  env: Env;
  home: string;
  cwd: string | null;
}): Promise<void> {
  if (!isTeamConfigured(request.config, request.env)) return;
  try {
    await startSyncWorker(request.cwd, request.env, request.home);
  } catch (error) {
    appendLog(request.home, 'warn', 'could not start the team replication worker', {
      error: String(error),
    });
  }
}
