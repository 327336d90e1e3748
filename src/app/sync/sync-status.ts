/**
 * The tracker sync's state for `shim sync --status`, `shim status` and `shim doctor`: what waits,
 * what was sent, what failed and why, and — when asked to reach the trackers — whether their
 * tokens work.
 * @module
 */
import type { Tracker } from '../../core/sync/issue-ref.ts';
import { openStore } from '../open-store.ts';
import type { OutboxCounts, OutboxEntry } from '../../store/ports/outbox.ts';
import { ClaudeMemClient } from '../../tracker/claude-mem-client.ts';
import { claudeMemUrl } from './claude-mem-place.ts';
import { getTrackerAccess } from './tracker-access.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type TrackerState = {
  tracker: Tracker;
  token: string | null;
  auth: string | null;
  fix: string | null;
};

export type SyncStatus = OutboxCounts & { recent: OutboxEntry[]; trackers: TrackerState[] };

/** Which trackers the outbox has used, and (with `probe`) whether their tokens are accepted. */
export async function getSyncStatus(
  home: string,
  env: Env,
  options: { probe?: boolean } = {},
): Promise<SyncStatus> {
  const store = openStore(home);
  let counts: OutboxCounts;
  let recent: OutboxEntry[];
  try {
    counts = store.outbox.counts();
    recent = store.outbox.list(10);
  } finally {
    store.close();
  }
  const used = [...new Set(recent.map((e) => `${e.issue.tracker}\t${e.issue.repo ?? ''}`))];
  const trackers: TrackerState[] = [];
  for (const pair of used) {
    const [tracker, repo] = pair.split('\t') as [Tracker, string];
    if (tracker === 'claude-mem') {
      const url = claudeMemUrl(env);
      const version = options.probe ? await new ClaudeMemClient(url).health() : null;
      trackers.push({
        tracker,
        token: 'none needed',
        auth: options.probe
          ? version
            ? `running (${version}) at ${url}`
            : `not running at ${url}`
          : null,
        fix:
          options.probe && !version ? 'start claude-mem (its observations wait until then)' : null,
      });
      continue;
    }
    const access = await getTrackerAccess(tracker, env, repo || null);
    if (!access.ok) {
      trackers.push({ tracker, token: null, auth: access.why, fix: access.fix });
      continue;
    }
    const auth = options.probe ? await access.client.checkAuth() : null;
    trackers.push({
      tracker,
      token: access.tokenFrom,
      auth: auth === null ? null : auth.ok ? `accepted (${auth.who})` : auth.message,
      fix: auth && !auth.ok ? `check the token in ${access.tokenFrom}` : null,
    });
  }
  return { ...counts, recent, trackers };
}
