/**
 * Sending what the outbox holds: each due entry leased, sent, and marked delivered — or due again
 * after a backoff, or failed for good when the tracker's answer will not change. A comment is
 * looked for before it is posted (its hidden marker): an entry whose worker died after posting
 * and before marking is delivered once, not twice. Tokens are read per tracker and never stored.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Tracker } from '../../core/sync/issue-ref.ts';
import { appendLog } from '../../store/home/log.ts';
import { saveSyncSummary } from '../../store/sync/sync-summary.ts';
import type { OutboxEntry } from '../../store/ports/outbox.ts';
import { ClaudeMemClient } from '../../tracker/claude-mem-client.ts';
import { PermanentTrackerError } from '../../tracker/tracker-client.ts';
import type { Store } from '../open-store.ts';
import { claudeMemUrl } from './claude-mem-place.ts';
import { getTrackerAccess, type TrackerAccess } from './tracker-access.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type DrainOptions = {
  /** The outbox, and the issues' facts it keeps as the tracker answers. */
  store: Pick<Store, 'outbox' | 'issueFacts'>;
  home: string;
  env: Env;
  now?: () => Date;
  /** How long a claimed entry is this worker's (a dead worker's entries come back after it). */
  leaseMs?: number;
  /** Wait before attempt n+1 (ms). */
  backoffMs?: (attempt: number) => number;
  /** Attempts before an entry is given up (a week of backoff by default). */
  maxAttempts?: number;
  /** How long entries wait for a token that is not there (ms). */
  noTokenWaitMs?: number;
  access?: (tracker: Tracker, repo: string | null) => Promise<TrackerAccess>;
  /** An entry older than this is not sent but marked stale (config sync.staleAfterHours). */
  staleAfterMs?: number;
  onProgress?: (line: string) => void;
};

export type DrainResult = {
  delivered: number;
  retrying: number;
  failed: number;
  waitingForToken: number;
  /** Dropped unsent: older than staleAfterMs. */
  stale: number;
};

/** How an entry put off for want of a token says so (the token's absence is then re-checked). */
export const WAITING_FOR_TOKEN = 'waiting for a token: ';
/** What older versions wrote for it. */
const OLD_WAITING = ['no GitHub token', 'no Linear API key'];

export const DEFAULT_STALE_AFTER_MS = 24 * 3_600_000;

/** "3 days", "26 hours": how long an entry waited. */
function age(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : `${hours} hours`;
}

/** 30 s, 1 min, 2 min … capped at 1 h. */
export const defaultBackoff = (attempt: number) =>
  Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempt - 1));

async function send(
  entry: OutboxEntry,
  access: Extract<TrackerAccess, { ok: true }>,
  facts: Store['issueFacts'],
  now: () => string,
): Promise<string | null> {
  const { client } = access;
  // The issue as it stands, for handoffs written later in a hook (no network there).
  const refresh = async (lastNote?: string) => {
    const issue = await client.getIssue(entry.issue);
    facts.put(entry.issue, { ...issue, ...(lastNote ? { lastNote } : {}) }, now());
  };
  switch (entry.action) {
    case 'comment': {
      const marker = entry.payload.marker ?? '';
      const posted = marker ? await client.findComment(entry.issue, marker) : null;
      const id = posted ?? (await client.addComment(entry.issue, entry.payload.body ?? ''));
      const headline = (entry.payload.body ?? '').split('\n')[0]!.replace(/^#+\s*/, '');
      await refresh(headline).catch(() => {});
      return id;
    }
    case 'label':
      await client.addLabel(entry.issue, entry.payload.name ?? '');
      return null;
    case 'state':
      await client.moveTo(entry.issue, entry.payload.name ?? '');
      return null;
    case 'facts':
      await refresh();
      return null;
    case 'observation':
      throw new PermanentTrackerError('an observation is for claude-mem, not an issue tracker');
  }
}

/** An observation for claude-mem: sent when its worker answers, else due again later. */
async function sendObservation(
  entry: OutboxEntry,
  env: Env,
): Promise<string | { waiting: string }> {
  const client = new ClaudeMemClient(claudeMemUrl(env));
  if ((await client.health()) === null)
    return { waiting: `claude-mem's worker is not running at ${claudeMemUrl(env)}` };
  return client.save({
    title: entry.payload.title ?? 'Context Checkpoint',
    text: entry.payload.text ?? '',
    project: entry.issue.key,
    metadata: JSON.parse(entry.payload.metadata ?? '{}') as Record<string, unknown>,
  });
}

/** Sends every entry due now, one at a time, until none is due. */
export async function drainOutbox(options: DrainOptions): Promise<DrainResult> {
  const now = options.now ?? (() => new Date());
  const { outbox, issueFacts: facts } = options.store;
  const owner = `${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? 120_000;
  const backoff = options.backoffMs ?? defaultBackoff;
  const maxAttempts = options.maxAttempts ?? 16;
  const access =
    options.access ?? ((tracker, repo) => getTrackerAccess(tracker, options.env, repo));
  const clients = new Map<string, TrackerAccess>();
  const result: DrainResult = {
    delivered: 0,
    retrying: 0,
    failed: 0,
    waitingForToken: 0,
    stale: 0,
  };
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  // A token set since entries were put off for want of one: they are due now, not in 6 hours.
  for (const tracker of outbox.trackersWaiting([WAITING_FOR_TOKEN, ...OLD_WAITING])) {
    const reach = await access(tracker, null);
    if (!reach.ok) continue;
    for (const why of [WAITING_FOR_TOKEN, ...OLD_WAITING])
      outbox.wakeWaiting(tracker, why, now().toISOString());
  }
  // What shim status shows (it does not open the store).
  const summarized = (r: DrainResult) => {
    try {
      saveSyncSummary(options.home, outbox.counts(), now().toISOString());
    } catch {
      // the status line is only information
    }
    return r;
  };
  for (;;) {
    const entry = outbox.claim(owner, now(), leaseMs);
    if (!entry) return summarized(result);
    const at = () => now().toISOString();
    // An update for a moment long past (a token added days later, a machine that was off) is
    // news no more: it is dropped and says so, never posted late.
    const waited = now().getTime() - Date.parse(entry.createdAt);
    if (entry.action !== 'facts' && waited > staleAfterMs) {
      outbox.stale(
        entry.id,
        `stale: not sent within ${age(staleAfterMs)} (queued ${age(waited)} ago); sync.staleAfterHours sets how long an update may wait`,
      );
      result.stale++;
      options.onProgress?.(
        `not sent (stale, queued ${age(waited)} ago): ${entry.action} on ${entry.issue.key}`,
      );
      continue;
    }
    if (entry.issue.tracker === 'claude-mem') {
      try {
        const sent = await sendObservation(entry, options.env);
        if (typeof sent === 'string') {
          outbox.delivered(entry.id, sent, at());
          result.delivered++;
          options.onProgress?.(`sent: observation to claude-mem (${entry.issue.key})`);
        } else {
          const retryAt = new Date(now().getTime() + backoff(entry.attempts)).toISOString();
          outbox.deferred(entry.id, sent.waiting, retryAt, entry.attempts >= maxAttempts);
          result.retrying++;
        }
      } catch (error) {
        const retryAt = new Date(now().getTime() + backoff(entry.attempts)).toISOString();
        outbox.deferred(entry.id, String(error), retryAt, entry.attempts >= maxAttempts);
        result.retrying++;
      }
      continue;
    }
    const where = `${entry.issue.tracker}:${entry.issue.repo ?? ''}`;
    let reach = clients.get(where);
    if (!reach) {
      reach = await access(entry.issue.tracker, entry.issue.repo ?? null);
      clients.set(where, reach);
    }
    if (!reach.ok) {
      const waitMs = options.noTokenWaitMs ?? 6 * 3_600_000;
      outbox.deferred(
        entry.id,
        `${WAITING_FOR_TOKEN}${reach.why}: ${reach.fix}`,
        new Date(now().getTime() + waitMs).toISOString(),
        entry.attempts >= maxAttempts,
      );
      result.waitingForToken++;
      continue;
    }
    const label = `${entry.action} on ${entry.issue.key}`;
    try {
      const remoteId = await send(entry, reach, facts, at);
      outbox.delivered(entry.id, remoteId, at());
      result.delivered++;
      options.onProgress?.(`sent: ${label}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentTrackerError;
      const giveUp = permanent || entry.attempts >= maxAttempts;
      outbox.deferred(
        entry.id,
        message,
        new Date(now().getTime() + backoff(entry.attempts)).toISOString(),
        giveUp,
      );
      if (giveUp) result.failed++;
      else result.retrying++;
      appendLog(
        options.home,
        giveUp ? 'error' : 'warn',
        `tracker sync: ${label} ${giveUp ? 'failed' : 'will be retried'}`,
        {
          error: message,
          attempts: entry.attempts,
        },
      );
      options.onProgress?.(`${giveUp ? 'failed' : 'retrying later'}: ${label}: ${message}`);
      // The tracker is unreachable: the rest waits for the next drain rather than piling up errors.
      if (!permanent) return summarized(result);
    }
  }
}
