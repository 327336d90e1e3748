/**
 * Opens the team repository for the worker and the team commands. pg and Kysely are imported
 * here, on demand, so no hook or statusline bundle carries them (test/team/bundles.test.ts).
 * @module
 */
import type { PoolConfig } from 'pg';
import type { TeamRepository } from '../../store/team/team-repository.ts';

export type OpenTeamOptions = {
  url: string;
  /** A ready pg pool config instead of the URL's (PGlite in tests). */
  poolConfig?: PoolConfig;
  /** Create or upgrade the schema (shim team connect); else fail when it is missing. */
  migrate?: boolean;
};

export async function openTeamRepository(options: OpenTeamOptions): Promise<TeamRepository> {
  const { openTeamDatabase, migrateTeamDatabase, assertTeamSchema } =
    await import('../../store/postgres/team-database.ts');
  const { PostgresTeamRepository } =
    await import('../../store/postgres/postgres-team-repository.ts');
  const db = await openTeamDatabase(
    options.poolConfig
      ? { url: options.url, poolConfig: options.poolConfig }
      : { url: options.url },
  );
  try {
    if (options.migrate) await migrateTeamDatabase(db, options.url);
    else await assertTeamSchema(db, options.url);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
  return new PostgresTeamRepository(db, options.url);
}
