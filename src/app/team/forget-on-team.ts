/**
 * `shim forget <session>` on the team store: every row of the session on the server — its
 * checkpoints, their files, summaries, handoffs, loop rows, the session — in one transaction, so
 * no other machine can restore or find it any more. Null without a team store.
 * @module
 */
import type { ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { openTeamRepository } from './open-team-store.ts';
import { resolveTeamUrl } from './team-url.ts';

export async function forgetOnTeam(
  sessionId: string,
  config: Pick<ShimConfig, 'team'>,
  env: Env,
): Promise<Record<string, number> | null> {
  const target = resolveTeamUrl(config, env);
  if (target === null) return null;
  const repository = await openTeamRepository({ url: target.url });
  try {
    return await repository.forgetSession(sessionId);
  } finally {
    await repository.close();
  }
}
