/**
 * `shim doctor`'s view of the tracker sync: off until an issue is linked or detected; then
 * whether each tracker's token is there and accepted, and what waits or failed. Never essential:
 * a tracker problem is reported here, not in a hook.
 * @module
 */
import { getSyncStatus } from '../sync/sync-status.ts';
import { check, type DoctorCheck, type DoctorOptions } from './doctor-check.ts';

export async function syncCheck(options: DoctorOptions): Promise<DoctorCheck> {
  let status;
  try {
    status = await getSyncStatus(options.home, options.env, { probe: true });
  } catch (error) {
    return check(
      'sync',
      'Tracker sync',
      'warn',
      false,
      `could not read the outbox: ${String(error)}`,
    );
  }
  const total = status.pending + status.delivered + status.failed;
  if (total === 0)
    return check(
      'sync',
      'Tracker sync',
      'ok',
      false,
      'nothing to sync yet: a session names its issue by its branch (feature/ANV-123-…) or shim link <issue> (a request\'s text only with "sync": {"fromRequests": true})',
    );
  const broken = status.trackers.find(
    (t) =>
      t.token === null ||
      (t.auth !== null && !t.auth.startsWith('accepted') && !t.auth.startsWith('running')),
  );
  const counts = `${status.delivered} sent, ${status.pending} waiting, ${status.failed} failed`;
  if (broken)
    return check(
      'sync',
      'Tracker sync',
      'warn',
      false,
      `${counts}; ${broken.tracker}: ${broken.auth ?? broken.token ?? ''}`,
      broken.fix,
    );
  const who = status.trackers
    .map((t) => `${t.tracker} ${t.auth ?? `token from ${t.token}`}`)
    .join(', ');
  if (status.failed > 0)
    return check(
      'sync',
      'Tracker sync',
      'warn',
      false,
      `${counts}; last error: ${status.lastError ?? '?'}`,
      'shim sync --status lists them',
    );
  return check('sync', 'Tracker sync', 'ok', false, `${counts}; ${who}`);
}
