/**
 * Opening the team store: a `pg` pool under Kysely (0.28: it runs on Node 20), the schema
 * migrated under an advisory lock (several machines may connect at once), and a check that the
 * schema is there before anything is written. Only the replication worker and team commands
 * load this module (dynamic import): pg never rides the hooks' path.
 * @module
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { AppError } from '../../core/errors.ts';
import { LATEST_POSTGRES_VERSION, POSTGRES_MIGRATIONS } from './migrations.ts';
import { toTeamError } from './team-errors.ts';
import type { TeamTables } from './team-tables.ts';

export type TeamDatabase = Kysely<TeamTables>;

/** Either a URL (libpq's rules: PGPASSWORD, ~/.pgpass, sslmode) or a ready pg pool config (PGlite). */
export type TeamTarget = { url: string } | { url: string; poolConfig: pg.PoolConfig };

/** A migration runs under this lock: one machine creates the tables, the others wait and see them. */
const MIGRATION_LOCK = 0x5eed_7ea3;

/**
 * The URL with libpq's meaning of `sslmode` (require: encrypted, not verified; verify-full:
 * certificate and host checked), which pg applies only when asked: otherwise it treats require
 * as verify-full and prints a multi-line warning on stderr at every connection.
 */
export function withLibpqSslmode(url: string): string {
  if (!/[?&]sslmode=/.test(url) || /[?&]uselibpqcompat=/.test(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}uselibpqcompat=true`;
}

export function openTeamDatabase(target: TeamTarget): TeamDatabase {
  const config: pg.PoolConfig =
    'poolConfig' in target
      ? target.poolConfig
      : {
          connectionString: withLibpqSslmode(target.url),
          max: 4,
          connectionTimeoutMillis: 8_000,
          idleTimeoutMillis: 5_000,
          // The worker is a short-lived process: idle clients must not keep it alive.
          allowExitOnIdle: true,
          application_name: 'shim',
        };
  const pool = new pg.Pool(config);
  // An idle client whose server went away emits 'error'; it must not crash the worker.
  pool.on('error', () => {});
  return new Kysely<TeamTables>({ dialect: new PostgresDialect({ pool }) });
}

export async function getTeamSchemaVersion(db: TeamDatabase): Promise<number> {
  const found = await sql<{ present: string | null }>`
    SELECT to_regclass('shim_schema_version')::text AS present`.execute(db);
  if (!found.rows[0]?.present) return 0;
  const row = await sql<{ version: number | null }>`
    SELECT MAX(version) AS version FROM shim_schema_version`.execute(db);
  return Number(row.rows[0]?.version ?? 0);
}

/** Applies the migrations the server lacks; returns the version it is at. */
export async function migrateTeamDatabase(db: TeamDatabase, url: string): Promise<number> {
  try {
    // Up to date: nothing to create (a role that may not create tables connects too).
    if ((await getTeamSchemaVersion(db)) === LATEST_POSTGRES_VERSION)
      return LATEST_POSTGRES_VERSION;
    return await db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
      await sql`CREATE TABLE IF NOT EXISTS shim_schema_version (
        version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`.execute(tx);
      let version = await getTeamSchemaVersion(tx);
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

/** Fails with TEAM_NO_SCHEMA (and how to fix it) when the server lacks shim's tables. */
export async function assertTeamSchema(db: TeamDatabase, url: string): Promise<void> {
  let version: number;
  try {
    version = await getTeamSchemaVersion(db);
  } catch (error) {
    throw toTeamError(error, url);
  }
  if (version === 0)
    throw toTeamError(
      Object.assign(new Error('relation "shim_schema_version" does not exist'), { code: '42P01' }),
      url,
    );
  if (version > LATEST_POSTGRES_VERSION)
    throw new AppError(
      'TEAM_FAILED',
      `the team store is at schema version ${version}, newer than this shim knows (${LATEST_POSTGRES_VERSION})`,
      'upgrade shim on this machine',
    );
}
