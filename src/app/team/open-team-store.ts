/**
 * Opens the team repository for the worker and the team commands, and the pull's lighter source
 * (plain pg, no Kysely: dist/team-pull.cjs). pg and Kysely are imported here, on demand, so no
 * hook or statusline bundle carries them (test/team/bundles.test.ts).
 * @module
 */
import type { PoolConfig } from 'pg';
import type { TeamPullSource, TeamRepository } from '../../store/ports/team-repository.ts';

export type OpenTeamOptions = {
  url: string;
  /** A ready pg pool config instead of the URL's (PGlite in tests). */
  poolConfig?: PoolConfig;
  /** Create or upgrade the schema (shim team connect); else fail when it is missing. */
  migrate?: boolean;
};

export async function openTeamRepository(options: OpenTeamOptions): Promise<TeamRepository> {
  const { openTeamDatabase, migrateTeamDatabase, queryableOf } =
    await import('../../store/postgres/team-database.ts');
  const { assertTeamSchema } = await import('../../store/postgres/team-pull-queries.ts');
  const { PostgresTeamRepository } =
    await import('../../store/postgres/postgres-team-repository.ts');
  const db = await openTeamDatabase(
    options.poolConfig
      ? { url: options.url, poolConfig: options.poolConfig }
      : { url: options.url },
  );
  try {
    if (options.migrate) await migrateTeamDatabase(db, options.url);
    else await assertTeamSchema(queryableOf(db), options.url);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
  return new PostgresTeamRepository(db, options.url);
}

/** The team store for a pull only (`shim team pull`): plain pg, no query builder loaded. */
export async function openTeamPullSource(options: { url: string }): Promise<TeamPullSource> {
  const { openTeamPullSource: open } = await import('../../store/postgres/team-pull-source.ts');
  return open(options.url);
}
