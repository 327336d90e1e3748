/**
 * A `pg` pool on the team store from a libpq connection string: the first host of the list that
 * accepts a connection, libpq's sslmode, the password from the string, PGPASSWORD or the password
 * file through our own lookup (pg's warns). Plain pg, no query builder: the pull a starting
 * session waits for (dist/team-pull.cjs) loads this and nothing heavier; team-database.ts puts
 * Kysely over the same pool for everything else.
 * @module
 */
import pg from 'pg';
import { parse as parseUri } from 'pg-connection-string';
import { AppError } from '../../core/errors.ts';
import { resolveConn, type ConnParams, type ConnTarget, type ResolvedConn } from './conninfo.ts';
import { passwordFromFile } from './password-file.ts';
import { isTransientTeamError, toTeamError } from './team-errors.ts';

/** libpq's sslmode as pg's `ssl` option, decoded by pg's own parser in its libpq mode. */
function sslFor(params: ConnParams, target: ConnTarget): pg.PoolConfig['ssl'] {
  const mode = params.sslmode ?? 'disable';
  // libpq never encrypts a unix socket; `allow` starts without.
  if (target.socket || mode === 'disable' || mode === 'allow') return false;
  const query = new URLSearchParams({ sslmode: mode === 'prefer' ? 'require' : mode });
  for (const key of ['sslrootcert', 'sslcert', 'sslkey'])
    if (params[key]) query.set(key, params[key]);
  const ssl = parseUri(`postgresql://shim-host/?${query.toString()}`, { useLibpqCompat: true }).ssl;
  return ssl === undefined || typeof ssl === 'string' ? true : (ssl as pg.PoolConfig['ssl']);
}

function poolConfigFor(conn: ResolvedConn, target: ConnTarget, ssl: pg.PoolConfig['ssl']) {
  const timeout = Number(conn.params.connect_timeout ?? 0);
  return {
    host: target.host,
    port: target.port,
    user: conn.user,
    database: conn.database,
    // Always a function: pg's own password-file lookup warns on every connection (pg 8.x).
    // Undefined (no password known) is what pg takes for "none" (its types say string only).
    password: (async () =>
      conn.password ??
      passwordFromFile(conn.passfile, target, conn.database, conn.user).password ??
      undefined) as () => Promise<string>,
    ssl,
    ...(conn.params.options ? { options: conn.params.options } : {}),
    max: 4,
    connectionTimeoutMillis: timeout > 0 ? Math.max(2, timeout) * 1000 : 8_000,
    idleTimeoutMillis: 5_000,
    // The worker is a short-lived process: idle clients must not keep it alive.
    allowExitOnIdle: true,
    application_name: conn.params.application_name ?? 'shim',
  } satisfies pg.PoolConfig;
}

/**
 * pg's client, whose socket is closed when its login fails: pg 8 leaves it open when the failure
 * is its own (no password to answer the server's SCRAM challenge), and the process then waits for
 * the server's authentication_timeout (60 s) before it can exit. pg-pool closes a timed-out
 * client the same way (`connection.stream.destroy()`).
 */
class ClosingClient extends pg.Client {}
type Connect = (this: pg.Client, callback?: (error: Error | null) => void) => unknown;
const connect = pg.Client.prototype.connect as Connect;
(ClosingClient.prototype as unknown as { connect: Connect }).connect = function (callback) {
  const close = () =>
    (
      this as unknown as { connection?: { stream?: { destroy(): void } } }
    ).connection?.stream?.destroy();
  if (callback)
    return connect.call(this, (error) => {
      if (error) close();
      callback(error);
    });
  return (connect.call(this) as Promise<unknown>).catch((error: unknown) => {
    close();
    throw error;
  });
};

export function newPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ Client: ClosingClient, ...config });
  // An idle client whose server went away emits 'error'; it must not crash the worker.
  pool.on('error', () => {});
  return pool;
}

/**
 * Opens a pool on the first host of the list that accepts a connection (libpq's order; a host
 * that answers and refuses the login ends the search, as in libpq), its first client kept in the
 * pool. `sslmode=prefer` falls back to an unencrypted connection when the server has no TLS.
 */
export async function openPool(url: string): Promise<pg.Pool> {
  let conn: ResolvedConn;
  try {
    conn = resolveConn(url);
  } catch (error) {
    throw new AppError(
      'TEAM_URL_INVALID',
      `the team store's connection string cannot be used: ${(error as Error).message}`,
      'give postgresql://user@host:5432/database, host=/run/postgresql dbname=…, or service=<name> (docs/team.md)',
    );
  }
  let last: unknown = null;
  for (const target of conn.targets) {
    let ssl = sslFor(conn.params, target);
    for (;;) {
      const pool = newPool(poolConfigFor(conn, target, ssl));
      try {
        (await pool.connect()).release();
        return pool;
      } catch (error) {
        await pool.end().catch(() => {});
        last = error;
        const noTls = /does not support SSL/i.test(String((error as Error)?.message));
        if (noTls && conn.params.sslmode === 'prefer' && ssl !== false) {
          ssl = false;
          continue;
        }
        // Only a host that could not be reached passes the turn to the next one.
        if (!isTransientTeamError(error)) throw toTeamError(error, url);
        break;
      }
    }
  }
  throw toTeamError(last, url);
}
