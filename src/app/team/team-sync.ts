/**
 * One pass of the team worker: replicate what waits, pull the team's newest unfinished work for
 * this machine's projects, apply the server's retention at most once a day, and note how it went
 * (store/team/team-summary.ts). Run by the background `shim sync --drain` worker and by `shim sync`.
 * @module
 */
import type { Env } from '../../store/home/home.ts';
import { appendLog } from '../../store/home/log.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type { CommandStore } from '../open-command-store.ts';
import { saveTeamSummary } from '../../store/team/team-summary.ts';
import { openTeamRepository } from './open-team-store.ts';
import { localProjectIds, pullTeamWork } from './pull-team-work.ts';
import { refreshPulledCopies } from './refresh-pulled-copies.ts';
import { replicateToTeam, teamRetryFor } from './replicate.ts';
import { currentWriter } from './team-settings.ts';
import { resolveTeamUrl } from './team-url.ts';

export type TeamSyncResult = {
  connected: boolean;
  sent: number;
  pulled: number;
  waiting: number;
  error: string | null;
};

export async function syncTeam(options: {
  store: CommandStore;
  home: string;
  env: Env;
  config: Pick<ShimConfig, 'team' | 'resumeWindowDays'>;
  cwd?: string | null;
  now?: () => Date;
  onProgress?: (line: string) => void;
}): Promise<TeamSyncResult | null> {
  const now = options.now ?? (() => new Date());
  let target;
  try {
    target = resolveTeamUrl(options.config, options.env);
  } catch (error) {
    const message = (error as Error).message;
    saveTeamSummary(options.home, {
      at: now().toISOString(),
      reached: false,
      error: message,
      sent: 0,
      pulled: 0,
    });
    const waiting = options.store.teamQueue.status().waiting;
    return { connected: false, sent: 0, pulled: 0, waiting, error: message };
  }
  if (target === null) return null;
  const queue = options.store.teamQueue;
  queue.sweep();
  const writer = currentWriter(options.env);
  let repository;
  try {
    repository = await openTeamRepository({ url: target.url });
  } catch (error) {
    const message = (error as Error).message;
    // The rows wait; their error says why (shim team status).
    const waiting = queue.claimBatch('probe', now(), 0, 1_000_000);
    queue.deferred(
      waiting.map((e) => e.outboxId),
      message,
      new Date(
        now().getTime() + teamRetryFor(options.env)(Math.max(1, ...waiting.map((e) => e.attempts))),
      ).toISOString(),
    );
    appendLog(options.home, 'warn', 'team store unreachable: rows wait', { error: message });
    saveTeamSummary(options.home, {
      at: now().toISOString(),
      reached: false,
      error: message,
      sent: 0,
      pulled: 0,
    });
    options.onProgress?.(`team store: ${message}`);
    return {
      connected: false,
      sent: 0,
      pulled: 0,
      waiting: queue.status().waiting,
      error: message,
    };
  }
  try {
    const pushed = await replicateToTeam({
      retryMs: teamRetryFor(options.env),
      store: options.store,
      home: options.home,
      repository,
      writer,
      now,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    let pulled = 0;
    let error = pushed.error;
    try {
      if (options.config.team.resume) {
        const cwds = options.cwd ? [options.cwd] : [];
        pulled = await pullTeamWork({
          store: options.store,
          repository,
          writer,
          now: now(),
          resumeWindowDays: options.config.resumeWindowDays,
          cwds,
        });
        // What the team's copies now redact is replaced in those held here (never on the
        // session start's budgeted pull: the worker does it).
        const since = new Date(
          now().getTime() - options.config.resumeWindowDays * 86_400_000,
        ).toISOString();
        await refreshPulledCopies({
          store: options.store,
          repository,
          projectIds: localProjectIds(options.store.sessions, since, cwds, writer.machine),
          since,
        });
      }
      await applyRetentionDaily(
        options.store,
        repository,
        options.config.team.retentionDays,
        now(),
      );
    } catch (failure) {
      error = (failure as Error).message;
    }
    saveTeamSummary(options.home, {
      at: now().toISOString(),
      reached: error === null,
      error,
      sent: pushed.sent,
      pulled,
    });
    return { connected: true, sent: pushed.sent, pulled, waiting: pushed.waiting, error };
  } finally {
    await repository.close();
  }
}

const RETENTION_KIND = 'retention';

async function applyRetentionDaily(
  store: Pick<CommandStore, 'teamQueue'>,
  repository: Awaited<ReturnType<typeof openTeamRepository>>,
  days: number,
  now: Date,
): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  const queue = store.teamQueue;
  if (queue.getMark(RETENTION_KIND) === day) return;
  await repository.applyRetention(days);
  queue.setMark(RETENTION_KIND, day);
}
