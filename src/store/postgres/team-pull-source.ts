/**
 * The team store as a pull sees it, on a bare pg pool (team-pool.ts): no query builder, so the
 * pull a starting session waits for (dist/team-pull.cjs) loads pg and nothing heavier. Errors
 * come back as the repository's do (team-errors.ts).
 * @module
 */
import type pg from 'pg';
import type { TeamPullSource, TeamWorkFound } from '../ports/team-repository.ts';
import { withTeamErrors } from './team-errors.ts';
import { openPool } from './team-pool.ts';
import { assertTeamSchema, newestUnfinished, pickUpHandoff } from './team-pull-queries.ts';

class PgTeamPullSource implements TeamPullSource {
  readonly #pool: pg.Pool;
  readonly #url: string;

  constructor(pool: pg.Pool, url: string) {
    this.#pool = pool;
    this.#url = url;
  }

  #run<T>(work: () => Promise<T>): Promise<T> {
    return withTeamErrors(this.#url, work);
  }

  newestUnfinished(
    projectIds: readonly string[],
    exclude: { machine: string; osUser: string },
    since: string,
  ): Promise<TeamWorkFound[]> {
    return this.#run(() => newestUnfinished(this.#pool, projectIds, exclude, since));
  }

  pickUpHandoff(handoffId: string, bySession: string, at: string): Promise<void> {
    return this.#run(() => pickUpHandoff(this.#pool, handoffId, bySession, at));
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

/** Connected, with shim's schema there, or an AppError saying why not (one line and its fix). */
export async function openTeamPullSource(url: string): Promise<TeamPullSource> {
  const pool = await openPool(url);
  try {
    await assertTeamSchema(pool, url);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return new PgTeamPullSource(pool, url);
}
