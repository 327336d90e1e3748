/**
 * Opening the team store: a `pg` pool (team-pool.ts) under Kysely (0.28: it runs on Node 20),
 * the schema migrated under an advisory lock (several machines may connect at once); the check
 * that it is there before anything is written is team-pull-queries.ts's. Only the replication worker and team commands
 * load this module (dynamic import): pg never rides the hooks' path.
 * @module
 */
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { LATEST_POSTGRES_VERSION, POSTGRES_MIGRATIONS } from './migrations.ts';
import { toTeamError } from './team-errors.ts';
import { newPool, openPool } from './team-pool.ts';
import { getTeamSchemaVersion, type Queryable } from './team-pull-queries.ts';
import type { TeamTables } from './team-tables.ts';

export type TeamDatabase = Kysely<TeamTables>;

/** Either a connection string (libpq's forms and environment) or a ready pg pool config (PGlite). */
export type TeamTarget = { url: string } | { url: string; poolConfig: pg.PoolConfig };

/** A migration runs under this lock: one machine creates the tables, the others wait and see them. */
const MIGRATION_LOCK = 0x5eed_7ea3;

/** Kysely as a `Queryable`: team-pull-queries.ts's plain SQL on this connection. */
export function queryableOf(db: TeamDatabase): Queryable {
  return {
    query: async <R>(text: string, values: readonly unknown[] = []) =>
      (await db.executeQuery<R>(CompiledQuery.raw(text, [...values]))) as { rows: R[] },
  };
}

/** Opens the team database: connected, or an AppError saying why not (one line and its fix). */
export async function openTeamDatabase(target: TeamTarget): Promise<TeamDatabase> {
  const pool = 'poolConfig' in target ? newPool(target.poolConfig) : await openPool(target.url);
  return new Kysely<TeamTables>({ dialect: new PostgresDialect({ pool }) });
}

/** Applies the migrations the server lacks; returns the version it is at. */
export async function migrateTeamDatabase(db: TeamDatabase, url: string): Promise<number> {
  try {
    // Up to date: nothing to create (a role that may not create tables connects too).
    if ((await getTeamSchemaVersion(queryableOf(db))) === LATEST_POSTGRES_VERSION)
      return LATEST_POSTGRES_VERSION;
    return await db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
      await sql`CREATE TABLE IF NOT EXISTS shim_schema_version (
        version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`.execute(tx);
      let version = await getTeamSchemaVersion(queryableOf(tx));
      for (const migration of POSTGRES_MIGRATIONS) {
        if (migration.version <= version) continue;
        await sql.raw(migration.sql).execute(tx);
        await sql`INSERT INTO shim_schema_version (version) VALUES (${migration.version})`.execute(
          tx,
        );
        version = migration.version;
      }
      return version;
    });
  } catch (error) {
    throw toTeamError(error, url);
  }
}
