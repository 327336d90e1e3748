/**
 * A real PostgreSQL server for the team store's tests: Debian's `postgresql` binaries
 * (`.ci/run` installs the package; SHIM_PG_BIN names another bin directory), a copy of a cluster
 * `initdb` made once (kept in the temp dir) in a temporary directory of its own, and `pg_ctl
 * start` listening on a unix socket only (no TCP port to collide with). As root the server runs as the `postgres` user (initdb refuses root), through runuser.
 * pg_hba: the superuser `postgres` by trust, every other role by password (scram), so tests can
 * try a wrong password and a read-only role.
 *
 * Where no server can run, `startPglite()` gives PGlite (WASM PostgreSQL) through pg's own pool
 * (`createPgConfig`): the same repository code, in-process only.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN_DIRS = [
  '/usr/lib/postgresql/17/bin',
  '/usr/lib/postgresql/16/bin',
  '/usr/lib/postgresql/15/bin',
];

export function findPostgresBin(): string | null {
  const named = process.env.SHIM_PG_BIN;
  if (named) return existsSync(join(named, 'initdb')) ? named : null;
  return BIN_DIRS.find((dir) => existsSync(join(dir, 'initdb'))) ?? null;
}

export type PostgresServer = {
  /** The socket directory (the URL's host). */
  socketDir: string;
  /** A URL for `database` as `user` (no password: PGPASSWORD or ~/.pgpass give it). */
  url: (database: string, user?: string) => string;
  /** Runs SQL as the superuser in `database`. */
  sql: (database: string, text: string) => Promise<pg.QueryResult>;
  createDatabase: () => Promise<string>;
  /** Stops the server (start() brings it back with its data). */
  stop: () => void;
  start: () => void;
  /** Stops it for good and removes its directory. */
  dispose: () => void;
};

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function run(bin: string, args: string[], owner: string | null): void {
  const [cmd, argv] = owner !== null ? ['runuser', ['-u', owner, '--', bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv as string[], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0)
    throw new Error(
      `${bin.split('/').pop()} failed: ${(result.stderr || result.stdout || String(result.error)).trim()}`,
    );
}

let counter = 0;

/**
 * A freshly initdb'd cluster for this bin directory and user, made once and kept in the
 * machine's temp dir (SHIM_TEST_KEPT_DIR: scripts/test.mjs gives each run a temp dir of its own,
 * removed at its end), made under a name of its own, then renamed into place: servers starting
 * at once in other test processes find it whole or make their own.
 */
function clusterTemplate(bin: string, owner: string | null): string {
  const key = createHash('sha256').update(`${bin}\0${owner}\0${process.getuid?.()}`).digest('hex');
  const kept = process.env.SHIM_TEST_KEPT_DIR || tmpdir();
  const template = join(kept, `shim-pg-template-${key.slice(0, 12)}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const making = mkdtempSync(`${template}-making-`);
  chmodSync(making, 0o755);
  if (owner !== null) chownSync(making, ownerId(owner, '-u'), ownerId(owner, '-g'));
  const data = join(making, 'data');
  run(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'],
    owner,
  );
  try {
    renameSync(data, template);
  } catch {
    // another process put its template in place first: the same cluster
  }
  rmSync(making, { recursive: true, force: true });
  return template;
}

const ownerId = (owner: string, flag: '-u' | '-g') =>
  Number(spawnSync('id', [flag, owner], { encoding: 'utf8' }).stdout.trim());

/** Starts a throwaway server; stop() ends it and removes its directory. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === null)
    throw new Error(
      'no PostgreSQL server binaries: apt-get install postgresql (Debian), or set SHIM_PG_BIN to a bin directory holding initdb and pg_ctl',
    );
  const owner = isRoot() ? 'postgres' : null;
  const dir = mkdtempSync(join(tmpdir(), 'shim-pg-'));
  chmodSync(dir, 0o755);
  if (owner !== null) {
    const pw =
      userInfo({ encoding: 'utf8' }) && spawnSync('id', ['-u', owner], { encoding: 'utf8' });
    const gw = spawnSync('id', ['-g', owner], { encoding: 'utf8' });
    chownSync(dir, Number(pw.stdout.trim()), Number(gw.stdout.trim()));
  }
  const data = join(dir, 'data');
  // A copy of one initdb's cluster (its owner and modes kept): initdb costs ~0.9 s of CPU and
  // seconds of wall, a copy ~0.1 s, and the team tests start some twenty servers a run.
  run('cp', ['-a', clusterTemplate(bin, owner), data], null);
  const hba = join(data, 'pg_hba.conf');
  writeFileSync(hba, 'local all postgres trust\nlocal all all scram-sha-256\n');
  if (owner !== null) {
    const uid = Number(spawnSync('id', ['-u', owner], { encoding: 'utf8' }).stdout.trim());
    chownSync(hba, uid, Number(spawnSync('id', ['-g', owner], { encoding: 'utf8' }).stdout.trim()));
  }
  const start = () =>
    run(
      join(bin, 'pg_ctl'),
      [
        '-D',
        data,
        '-l',
        join(dir, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-k ${dir} -h '' -F`,
        'start',
      ],
      owner,
    );
  const stop = () => run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], owner);
  start();
  const url = (database: string, user = 'postgres') =>
    `postgresql://${user}@localhost/${database}?host=${encodeURIComponent(dir)}`;
  const sql = async (database: string, text: string) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  };
  return {
    socketDir: dir,
    url,
    sql,
    createDatabase: async () => {
      const name = `shim_test_${process.pid}_${++counter}`;
      await sql('postgres', `CREATE DATABASE ${name}`);
      return name;
    },
    start,
    stop,
    dispose: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** PGlite through pg's pool: for the in-process tests when no server binary is here. */
export async function startPglite(): Promise<{
  poolConfig: pg.PoolConfig;
  close: () => Promise<void>;
}> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = (await import('@electric-sql/pglite/node-postgres')) as unknown as {
    createPgConfig: (db: unknown) => pg.PoolConfig;
  };
  const db = new PGlite();
  await db.waitReady;
  return { poolConfig: { ...createPgConfig(db), max: 1 }, close: () => db.close() };
}
