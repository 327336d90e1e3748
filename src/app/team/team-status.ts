/**
 * `shim team status`: whether the team store answers, what waits to reach it and since when, and
 * the last error (the worker's, or the probe's now). The shape of `--json` is a contract
 * (DESIGN.md): {"connected","waiting","lagSeconds","lastError"}.
 * @module
 */
import { isProcessAlive } from '../../capture/process-tree.ts';
import { AppError } from '../../core/errors.ts';
import { lockHolder } from '../../store/sync/worker-locks.ts';
import type { Env } from '../../store/home/home.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type { CommandStore } from '../open-command-store.ts';
import { loadTeamSummary } from '../../store/team/team-summary.ts';
import { openTeamRepository } from './open-team-store.ts';
import { currentWriter } from './team-settings.ts';
import { resolveTeamUrl, type TeamUrl } from './team-url.ts';

export type TeamStatus = {
  connected: boolean;
  waiting: number;
  lagSeconds: number | null;
  lastError: string | null;
};

export type TeamStatusDetail = TeamStatus & {
  url: string | null;
  source: TeamUrl['source'] | null;
  machine: string;
  osUser: string;
  canWrite: boolean | null;
  delivered: number;
  /** Rows the server refused for good, set aside (never retried), and the newest one's reason. */
  setAside: number;
  lastSetAside: string | null;
  /** When the rows that wait are tried next (null: nothing waits). */
  nextAttemptAt: string | null;
  /** The worker waiting to try them then (null: none waits, the next hook starts one). */
  waiterPid: number | null;
  lastReached: string | null;
  /** How to fix the last error, when it is one shim knows. */
  fix: string | null;
};

export async function getTeamStatus(options: {
  store: Pick<CommandStore, 'teamQueue'>;
  home: string;
  env: Env;
  config: Pick<ShimConfig, 'team'>;
  now: Date;
}): Promise<TeamStatusDetail> {
  const queue = options.store.teamQueue;
  const writer = currentWriter(options.env);
  let target: TeamUrl | null = null;
  let lastError: string | null = null;
  let fix: string | null = null;
  const failed = (error: unknown) => {
    lastError = (error as Error).message;
    fix = error instanceof AppError ? (error.hint ?? null) : null;
  };
  try {
    target = resolveTeamUrl(options.config, options.env);
  } catch (error) {
    failed(error);
  }
  if (target !== null) queue.sweep();
  const counts = queue.status();
  let connected = false;
  let canWrite: boolean | null = null;
  if (target !== null) {
    try {
      const repository = await openTeamRepository({ url: target.url });
      try {
        connected = true;
        canWrite = await repository.canWrite();
        if (!canWrite) {
          lastError = `this role may read the team store but not write to it: ${counts.waiting} rows wait`;
          fix = 'grant it shim_writer (docs/team.md, "Roles"), or connect as a user who may write';
        }
      } finally {
        await repository.close();
      }
    } catch (error) {
      failed(error);
    }
  }
  const summary = loadTeamSummary(options.home);
  const lagSeconds =
    counts.oldestWaiting !== null
      ? Math.max(0, Math.round((options.now.getTime() - Date.parse(counts.oldestWaiting)) / 1000))
      : connected
        ? 0
        : null;
  return {
    connected,
    waiting: counts.waiting,
    lagSeconds,
    lastError: lastError ?? counts.lastError ?? (summary?.reached === false ? summary.error : null),
    url: target?.url ?? null,
    source: target?.source ?? null,
    ...writer,
    canWrite,
    delivered: counts.delivered,
    setAside: counts.setAside,
    lastSetAside: counts.lastSetAside,
    nextAttemptAt: counts.waiting > 0 ? counts.nextAttemptAt : null,
    waiterPid: lockHolder(options.home, 'wait', isProcessAlive),
    lastReached: summary?.reached ? summary.at : null,
    fix,
  };
}
