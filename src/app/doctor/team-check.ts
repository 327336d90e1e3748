/**
 * `shim doctor`'s view of the team store (docs/team.md): not connected (optional), or whether the
 * server answers, has shim's tables, lets this role write, and how much waits. Never essential:
 * the hooks work without it and the rows wait in the outbox.
 * @module
 */
import { loadConfig } from '../../store/config/config.ts';
import { openCommandStore } from '../open-command-store.ts';
import { getTeamStatus } from '../team/team-status.ts';
import { isTeamConfigured } from '../team/team-settings.ts';
import { check, type DoctorCheck, type DoctorOptions } from './doctor-check.ts';

const TITLE = 'Team store';

export async function teamCheck(options: DoctorOptions): Promise<DoctorCheck> {
  let config;
  try {
    config = await loadConfig(options.home, { lenient: true });
  } catch (error) {
    return check('team', TITLE, 'warn', false, `could not read the config: ${String(error)}`);
  }
  if (!isTeamConfigured(config, options.env))
    return check(
      'team',
      TITLE,
      'ok',
      false,
      'not connected (optional): shim team connect postgres://user@host/database shares work across machines',
    );
  let status;
  let store: ReturnType<typeof openCommandStore> | null = null;
  try {
    store = openCommandStore(options.home);
    status = await getTeamStatus({
      store,
      home: options.home,
      env: options.env,
      config,
      now: options.now ?? new Date(),
    });
  } catch (error) {
    return check('team', TITLE, 'warn', false, String((error as Error).message ?? error));
  } finally {
    store?.close();
  }
  const counts = `${status.waiting} waiting${status.lagSeconds !== null ? `, lag ${status.lagSeconds}s` : ''}, ${status.delivered} sent`;
  if (status.lastError !== null || !status.connected)
    return check(
      'team',
      TITLE,
      'warn',
      false,
      `${status.lastError ?? 'not reachable'} (${counts})`,
      status.fix ?? 'shim team status shows the details',
    );
  return check(
    'team',
    TITLE,
    'ok',
    false,
    `reachable as ${status.osUser} on ${status.machine}; ${counts}`,
  );
}
