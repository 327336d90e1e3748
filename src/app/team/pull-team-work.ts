/**
 * Brings the team's newest unfinished work for this machine's projects into the local store
 * (team_work), so the next SessionStart can restore it without a connection. The projects are
 * those this machine worked in within the resume window, named as every machine names them.
 * What the local store already holds (its own checkpoints) is never pulled back.
 * @module
 */
import { existsSync } from 'node:fs';
import { identifyProject } from '../../capture/project-remote.ts';
import type { Sessions } from '../../store/ports/sessions.ts';
import type { TeamRepository } from '../../store/ports/team-repository.ts';
import type { Store } from '../open-store.ts';
import type { Writer } from './team-settings.ts';

/** The team ids of the projects this machine worked in since `since` (and `extra` directories). */
export function localProjectIds(
  sessions: Pick<Sessions, 'list'>,
  since: string,
  extra: readonly string[],
  machine: string,
): string[] {
  const ids = new Set<string>();
  const seenRoots = new Set<string>();
  const dirs = [
    ...extra,
    ...sessions
      .list()
      .filter((s) => s.lastSeenAt >= since && s.cwd !== null)
      .map((s) => s.cwd!),
  ];
  for (const dir of dirs) {
    if (seenRoots.has(dir) || !existsSync(dir)) continue;
    seenRoots.add(dir);
    ids.add(identifyProject(dir, { SHIM_MACHINE: machine }).id);
  }
  return [...ids];
}

export async function pullTeamWork(options: {
  store: Pick<Store, 'sessions' | 'checkpoints' | 'teamWork'>;
  repository: Pick<TeamRepository, 'newestUnfinished' | 'pickUpHandoff'>;
  writer: Writer;
  now: Date;
  resumeWindowDays: number;
  /** Directories to include besides those of recent sessions (shim sync run in a project). */
  cwds?: readonly string[];
}): Promise<number> {
  const since = new Date(
    options.now.getTime() - options.resumeWindowDays * 86_400_000,
  ).toISOString();
  const ids = localProjectIds(
    options.store.sessions,
    since,
    options.cwds ?? [],
    options.writer.machine,
  );
  const found = await options.repository.newestUnfinished(ids, options.writer, since);
  const { checkpoints, teamWork: cache } = options.store;
  // Team handoffs restored here since the last pull are picked up for everyone.
  for (const taken of cache.listTakenHandoffs())
    await options.repository.pickUpHandoff(taken.handoffId, taken.takenBy, taken.takenAt);
  let pulled = 0;
  for (const work of found) {
    if (checkpoints.getById(work.checkpoint.id) !== null) continue;
    cache.put({ ...work, pulledAt: options.now.toISOString() });
    pulled++;
  }
  return pulled;
}
