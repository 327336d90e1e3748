/**
 * `shim team pull`: the team's newest unfinished work for the project at `cwd` (and this
 * machine's other recent projects) into the local copy, now; nothing is sent (the worker sends).
 * One implementation for the command (cli/commands/team.ts) and for dist/team-pull.cjs, the
 * child a starting session waits for (pull-at-start.ts): plain pg (openTeamPullSource), no
 * query builder, so that child loads as little as it can.
 * @module
 */
import type { Env } from '../../store/home/home.ts';
import { loadConfig, type ShimConfig } from '../../store/config/config.ts';
import type { CommandStore } from '../open-command-store.ts';
import { openStore } from '../open-store.ts';
import { openTeamPullSource } from './open-team-store.ts';
import { pullTeamWork } from './pull-team-work.ts';
import { currentWriter } from './team-settings.ts';
import { resolveTeamUrl } from './team-url.ts';

/**
 * `shim team pull` for the project at `cwd`. The connection (and its schema check) starts first,
 * and the local store opens while the server answers: the pull a session start waits for pays
 * the two one after the other otherwise.
 */
export async function pullTeamForProject(options: {
  openStore: () => Pick<CommandStore, 'sessions' | 'checkpoints' | 'teamWork'> & {
    close(): void;
  };
  env: Env;
  config: Pick<ShimConfig, 'team' | 'resumeWindowDays'>;
  cwd: string;
  /** Called once the work is in the local store, before the connection closes. */
  onPulled?: (pulled: number) => void;
}): Promise<{ pulled: number } | null> {
  const target = resolveTeamUrl(options.config, options.env);
  if (target === null || !options.config.team.resume) return null;
  const opening = openTeamPullSource({ url: target.url });
  // Handled below; a rejection must not go unhandled while the store opens.
  opening.catch(() => {});
  // One turn of the event loop: the driver loads and its socket is out before the store opens.
  await new Promise((resolve) => setImmediate(resolve));
  let store;
  try {
    store = options.openStore();
  } catch (error) {
    await opening.then((repository) => repository.close()).catch(() => {});
    throw error;
  }
  try {
    const repository = await opening;
    try {
      const pulled = await pullTeamWork({
        store,
        repository,
        writer: currentWriter(options.env),
        now: new Date(),
        resumeWindowDays: options.config.resumeWindowDays,
        cwds: [options.cwd],
      });
      options.onPulled?.(pulled);
      return { pulled };
    } finally {
      await repository.close();
    }
  } finally {
    store.close();
  }
}

/** `shim team pull` here: the config of `home` (lenient, as the hooks read it) and the pull. */
export async function pullTeamHere(request: {
  home: string;
  env: Env;
  cwd: string;
  onPulled?: (pulled: number) => void;
}): Promise<{ config: ShimConfig; result: { pulled: number } | null }> {
  const config = await loadConfig(request.home, { lenient: true });
  const result = await pullTeamForProject({
    openStore: () => openStore(request.home),
    env: request.env,
    config,
    cwd: request.cwd,
    ...(request.onPulled ? { onPulled: request.onPulled } : {}),
  });
  return { config, result };
}
