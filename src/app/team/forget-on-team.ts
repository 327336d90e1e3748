/**
 * `shim forget` (and MCP shim_forget) on the team store. A session: every row of it on the server
 * — its checkpoints, their files, summaries, handoffs, loop rows, the session — in one
 * transaction, so no other machine can restore or find it any more. A checkpoint: its row, its
 * files, handoffs and summaries. Null without a team store.
 * @module
 */
import type { ForgetTarget } from '../../store/ports/forgetting.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { openTeamRepository } from './open-team-store.ts';
import { resolveTeamUrl } from './team-url.ts';

/** Where forget looks for the team store: the user's settings and environment. */
export type TeamReach = { config: Pick<ShimConfig, 'team'>; env: Env };

export function teamConnected(team: TeamReach): boolean {
  return resolveTeamUrl(team.config, team.env) !== null;
}

export async function forgetOnTeam(
  target: ForgetTarget,
  team: TeamReach,
): Promise<Record<string, number> | null> {
  const url = resolveTeamUrl(team.config, team.env);
  if (url === null) return null;
  const repository = await openTeamRepository({ url: url.url });
  try {
    return target.kind === 'session'
      ? await repository.forgetSession(target.id)
      : await repository.forgetCheckpoint(target.id);
  } finally {
    await repository.close();
  }
}

/**
 * An id this machine's store no longer has (forgotten here while the server did not answer):
 * a session of that id on the server, else a checkpoint. Null when the server has neither.
 */
export async function forgetOnTeamOnly(
  id: string,
  team: TeamReach,
): Promise<{ target: ForgetTarget; rows: Record<string, number> } | null> {
  const removed = (rows: Record<string, number>) => Object.values(rows).some((n) => n > 0);
  const asSession = await forgetOnTeam({ kind: 'session', id }, team);
  if (asSession !== null && removed(asSession))
    return { target: { kind: 'session', id }, rows: asSession };
  const asCheckpoint = await forgetOnTeam({ kind: 'checkpoint', id }, team);
  if (asCheckpoint !== null && removed(asCheckpoint))
    return { target: { kind: 'checkpoint', id }, rows: asCheckpoint };
  return null;
}
