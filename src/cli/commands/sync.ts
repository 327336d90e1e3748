/**
 * `shim link` and `shim sync`.
 * @module
 */
import { findProjectRoot } from '../../capture/project.ts';
import { isProcessAlive } from '../../capture/process-tree.ts';
import type { Agents } from '../../agents/agent.ts';
import { newestSession } from '../../app/session/session-log.ts';
import { AppError } from '../../core/errors.ts';
import { formatIssue, parseIssueArgument } from '../../core/sync/issue-ref.ts';
import { drainOutbox } from '../../app/sync/drain-outbox.ts';
import { currentIssue, linkIssue } from '../../app/sync/link-issue.ts';
import { getSyncStatus } from '../../app/sync/sync-status.ts';
import { openCommandStore, type CommandStore } from '../../app/open-command-store.ts';
import { appendLog } from '../../store/home/log.ts';
import { isTeamConfigured } from '../../app/team/team-settings.ts';
import { getShimHome } from '../../store/home/home.ts';
import { takeWorkerLock } from '../../store/sync/worker-locks.ts';
import { loadConfig } from '../../store/config/config.ts';

/** How long an update may wait before it is dropped as stale (config sync.staleAfterHours). */
async function staleAfterMs(home: string): Promise<number> {
  const config = await loadConfig(home, {
    lenient: true,
    projectRoot: findProjectRoot(process.cwd()),
  });
  return (config.sync.staleAfterHours ?? 24) * 3_600_000;
}
import { loadHookMemory, saveHookMemory } from '../../store/cache/hook-memory.ts';

/** The session meant: the one named, else the newest of this directory, of any agent. */
async function latestSessionId(
  agents: Agents,
  cwd: string,
  explicit: string | undefined,
): Promise<string | null> {
  if (explicit) return explicit;
  return (await newestSession(cwd, process.env, agents))?.file.sessionId ?? null;
}

export async function runLink(
  agents: Agents,
  arg: string | undefined,
  options: { clear?: boolean; session?: string; json?: boolean },
): Promise<void> {
  const home = getShimHome();
  const cwd = process.cwd();
  const projectRoot = findProjectRoot(cwd);
  const sessionId = await latestSessionId(agents, cwd, options.session);
  if (arg !== undefined && options.clear)
    throw new AppError(
      'USAGE',
      'an issue and --clear both given',
      'shim link <issue>, or shim link --clear',
    );
  if (arg !== undefined || options.clear) {
    const issue = arg === undefined ? null : parseIssueArgument(arg);
    if (arg !== undefined && !issue)
      throw new AppError(
        'USAGE',
        `not an issue: ${arg}`,
        'give ANV-123, 123, #123, owner/repo#123 or an issue URL',
      );
    await linkIssue({ home, sessionId, projectRoot, issue, now: new Date().toISOString() });
    // The statusline reads the session's hook memory, not the store.
    if (sessionId)
      saveHookMemory(home, sessionId, {
        ...loadHookMemory(home, sessionId),
        issue: issue ? formatIssue(issue) : null,
      });
  }
  const now = await currentIssue({ home, sessionId, projectRoot });
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ sessionId, projectRoot, issue: now })}\n`);
    return;
  }
  if (!now)
    process.stdout.write(
      options.clear
        ? `no issue for ${projectRoot}: nothing will be synced from it\n`
        : `no issue linked for ${projectRoot}; a session's branch or requests may still name one (shim link <issue> to say it)\n`,
    );
  else
    process.stdout.write(
      `${formatIssue(now.ref)} (${now.ref.tracker}) for ${now.scope === 'session' ? `session ${sessionId?.slice(0, 8)} and ` : ''}${projectRoot}\n`,
    );
}

/**
 * The worker's team pass; its failures wait in the outbox and never stop the tracker sync. The
 * worker runs in the directory it was started from (a session's work tree, or where `shim team
 * connect` ran): that project's team work is pulled even before this machine has a session in it.
 */
async function syncTeamInWorker(store: CommandStore, home: string): Promise<void> {
  const config = await loadConfig(home, { lenient: true });
  if (!isTeamConfigured(config, process.env)) return;
  const { syncTeam } = await import('../../app/team/team-sync.ts');
  try {
    await syncTeam({ store, home, env: process.env, config, cwd: process.cwd() });
  } catch (error) {
    appendLog(home, 'warn', 'team sync failed', { error: String(error) });
  }
}

/** Queues the team rows written since the last sweep (when a team store is configured). */
async function teamRowsWaiting(store: CommandStore, home: string): Promise<boolean> {
  const config = await loadConfig(home, { lenient: true });
  if (!isTeamConfigured(config, process.env)) return false;
  return store.teamQueue.sweep() > 0;
}

/** The longest one wait between tries (the team's backoff tops out here: app/team/replicate.ts). */
const WORKER_WAIT_MS = 10 * 60_000;
/** A worker waiting this long leaves; the next hook (a checkpoint, a session start) starts one. */
const WORKER_LIFETIME_MS = 24 * 3_600_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When the worker has something to do next: the outbox's next due entry, or now. */
async function nextDue(home: string): Promise<string | null> {
  const store = openCommandStore(home);
  try {
    // A checkpoint written while the team pass ran was not yet queued, and its own worker left
    // at the send lock: queue it now and go round again rather than leave it for the next one.
    if (await teamRowsWaiting(store, home)) return new Date().toISOString();
    return store.outbox.nextDue();
  } finally {
    store.close();
  }
}

/**
 * The background worker (`shim sync --drain`, started detached by hooks and commands): sends what
 * is due — one sender at a time (`sync-worker.lock`) — then, while something waits for a retry
 * (the team store down: 30 s, 1 min … 10 min apart), waits for it. Only one worker per SHIM_HOME
 * waits (`sync-waiter.lock`): any other leaves once it has sent what it came for, so a server down
 * for an hour costs one sleeping process, not one per checkpoint (issue 42 item 21).
 */
async function runWorker(home: string): Promise<void> {
  const started = Date.now();
  const stale = await staleAfterMs(home);
  while (Date.now() - started < WORKER_LIFETIME_MS) {
    const release = takeWorkerLock(home, 'send', isProcessAlive);
    // Another worker sends now, and looks for more once it lets the lock go.
    if (!release) return;
    try {
      const store = openCommandStore(home);
      try {
        await drainOutbox({ store, home, env: process.env, staleAfterMs: stale });
        await syncTeamInWorker(store, home);
      } finally {
        store.close();
      }
    } finally {
      release();
    }
    // Looked at only once the lock is let go: what was queued while it was held is seen here.
    const next = await nextDue(home);
    if (next === null) return;
    const wait = Date.parse(next) - Date.now();
    if (wait <= 0) continue;
    if (wait > WORKER_WAIT_MS) return;
    const waiting = takeWorkerLock(home, 'wait', isProcessAlive);
    if (!waiting) return;
    try {
      await sleep(wait + 50);
    } finally {
      waiting();
    }
  }
}

export async function runSync(options: {
  status?: boolean;
  json?: boolean;
  drain?: boolean;
}): Promise<void> {
  const home = getShimHome();
  if (options.drain) return runWorker(home);
  // The team store's rows go (and the team's unfinished work comes) first: docs/team.md.
  if (!options.status) await (await import('./team.ts')).runTeamSyncNow(options.json === true);
  if (!options.status) {
    const store = openCommandStore(home);
    try {
      const sent = await drainOutbox({
        store,
        home,
        env: process.env,
        staleAfterMs: await staleAfterMs(home),
        onProgress: (line) => {
          if (!options.json) process.stderr.write(`${line}\n`);
        },
      });
      if (
        !options.json &&
        sent.delivered + sent.retrying + sent.failed + sent.waitingForToken + sent.stale > 0
      )
        process.stderr.write(
          `sent ${sent.delivered}, retrying later ${sent.retrying}, failed ${sent.failed}, waiting for a token ${sent.waitingForToken}, not sent as stale ${sent.stale}\n`,
        );
    } finally {
      store.close();
    }
  }
  const status = await getSyncStatus(home, process.env);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(status)}\n`);
    return;
  }
  const lines = [
    `tracker sync: ${status.delivered} sent, ${status.pending} waiting, ${status.failed} failed${status.stale ? `, ${status.stale} not sent (stale: they waited past their moment)` : ''}${status.oldestPending ? ` (oldest waiting since ${status.oldestPending})` : ''}`,
    ...status.trackers.map(
      (t) => `  ${t.tracker}: ${t.token ? `token from ${t.token}` : `${t.auth} — ${t.fix}`}`,
    ),
    ...(status.lastError ? [`  last error: ${status.lastError}`] : []),
    ...status.recent.map(
      (e) =>
        `  ${e.status.padEnd(9)} ${e.action.padEnd(7)} ${formatIssue(e.issue).padEnd(16)} ${e.createdAt.slice(0, 16)}${e.attempts > 1 ? ` (${e.attempts} attempts)` : ''}`,
    ),
  ];
  if (status.pending + status.delivered + status.failed + status.stale === 0)
    lines.push('  nothing queued: see shim link --help for when shim syncs');
  process.stdout.write(`${lines.join('\n')}\n`);
}
