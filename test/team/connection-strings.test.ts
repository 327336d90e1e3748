/**
 * Every connection string form libpq takes, against a real PostgreSQL server on a unix socket
 * (test/helpers/postgres.ts): the URI with an empty host and `?host=`, a percent-encoded socket
 * directory, a host list whose first host is dead, keyword/value pairs, nothing but PG* variables,
 * a service file; the password from PGPASSWORD, ~/.pgpass or PGPASSFILE — and never a warning of
 * pg's on stderr. Then no password of any string, refused or accepted, anywhere under SHIM_HOME.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CheckpointRepository } from '../../src/store/checkpoints/checkpoint-repository.ts';
import { SessionRepository } from '../../src/store/checkpoints/session-repository.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { runShim } from '../helpers/cli.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { draftIn, makeClone } from './team-fixture.ts';

const PASSWORD = 'right-horse';
let server: PostgresServer;
let database: string;

before(async () => {
  server = await startPostgres();
  await server.sql('postgres', `CREATE ROLE ada LOGIN PASSWORD '${PASSWORD}'`);
  database = await server.createDatabase();
  await server.sql(database, 'GRANT ALL ON SCHEMA public TO ada');
});
after(() => server?.dispose());

/** A HOME for one run, with a .pgpass when asked (mode 0600 unless told otherwise). */
function homeWith(pgpass: string | null, mode = 0o600): string {
  const home = makeTempDir('shim-conn-home-');
  if (pgpass !== null) {
    writeFileSync(join(home, '.pgpass'), pgpass);
    chmodSync(join(home, '.pgpass'), mode);
  }
  return home;
}

function status(shimHome: string, env: Record<string, string>) {
  const run = runShim(shimHome, ['team', 'status', '--json'], {
    env: { PGHOST: '', PGUSER: '', PGPASSWORD: '', PGDATABASE: '', PGSERVICE: '', ...env },
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '', 'nothing on stderr: no warning of pg');
  return JSON.parse(run.stdout) as { connected: boolean; lastError: string | null };
}

describe('libpq connection strings against a real server', () => {
  before(() => {
    // The schema, once, by ada (who owns it, so may write).
    const run = runShim(
      join(makeTempDir('shim-conn-'), 'home'),
      ['team', 'connect', server.url(database, 'ada')],
      { env: { PGPASSWORD: PASSWORD } },
    );
    assert.equal(run.status, 0, run.stderr);
  });

  const enc = (s: string) => encodeURIComponent(s);
  const line = (host: string) => `${host}:5432:${database}:ada:${PASSWORD}\n`;

  for (const form of [
    {
      name: 'empty host, ?host= socket, PGPASSWORD',
      url: () => `postgresql://ada@/${database}?host=${server.socketDir}`,
      env: () => ({ PGPASSWORD: PASSWORD }),
    },
    {
      name: 'no authority at all, user in the query, ~/.pgpass',
      url: () => `postgresql:///${database}?host=${server.socketDir}&user=ada`,
      env: () => ({ HOME: homeWith(line(server.socketDir)) }),
    },
    {
      name: 'percent-encoded socket directory as the host, ~/.pgpass naming localhost',
      url: () => `postgres://ada@${enc(server.socketDir)}/${database}`,
      env: () => ({ HOME: homeWith(line('localhost')) }),
    },
    {
      name: 'a host list whose first host has no server',
      url: () =>
        `postgresql://ada@${enc(makeTempDir('shim-dead-sock-'))},${enc(server.socketDir)}/${database}`,
      env: () => ({ PGPASSWORD: PASSWORD }),
    },
    {
      name: 'keyword/value pairs, PGPASSFILE',
      url: () => `host=${server.socketDir} dbname='${database}' user=ada`,
      env: () => {
        const file = join(homeWith(null), 'passwords');
        writeFileSync(file, `*:*:*:ada:${PASSWORD}\n`, { mode: 0o600 });
        return { PGPASSFILE: file };
      },
    },
    {
      name: 'nothing but PGHOST, PGUSER, PGDATABASE and PGPASSWORD',
      url: () => 'postgresql://',
      env: () => ({
        PGHOST: server.socketDir,
        PGUSER: 'ada',
        PGDATABASE: database,
        PGPASSWORD: PASSWORD,
      }),
    },
    {
      name: 'a service file entry, ~/.pgpass',
      url: () => 'service=team',
      env: () => {
        const home = homeWith(line(server.socketDir));
        const file = join(home, 'services.conf');
        writeFileSync(file, `[team]\nhost=${server.socketDir}\ndbname=${database}\nuser=ada\n`);
        return { HOME: home, PGSERVICEFILE: file };
      },
    },
  ]) {
    test(form.name, () => {
      const shimHome = join(makeTempDir('shim-conn-'), 'home');
      const got = status(shimHome, { SHIM_TEAM_URL: form.url(), ...form.env() });
      assert.equal(got.lastError, null);
      assert.equal(got.connected, true);
    });
  }

  test('a .pgpass others may read is ignored, and the refusal says so', () => {
    const shimHome = join(makeTempDir('shim-conn-'), 'home');
    const home = homeWith(line(server.socketDir), 0o644);
    const run = runShim(shimHome, ['team', 'status'], {
      env: { SHIM_TEAM_URL: `postgresql://ada@/${database}?host=${server.socketDir}`, HOME: home },
    });
    assert.equal(run.stderr, '');
    assert.match(run.stdout, /\.pgpass is ignored: others may read it \(chmod 600/);
  });
});

/** Every file under `dir` whose bytes hold `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      if (name !== 'run') found.push(...filesHolding(path, needle));
    } else if (stat.isFile() && readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

describe('no password of a connection string under SHIM_HOME', () => {
  test('after a refused string, an accepted one, and one the server refuses', () => {
    const shimHome = join(makeTempDir('shim-conn-'), 'home');
    const clone = makeClone('app');
    mkdirSync(shimHome, { recursive: true });
    const db = openDatabase(shimHome);
    const sessionId = randomUUID();
    new SessionRepository(db).touch(
      { agent: 'claude', sessionId, cwd: clone },
      new Date().toISOString(),
    );
    new CheckpointRepository(db).save(draftIn(clone, sessionId, new Date().toISOString()));
    db.close();
    const refused = 'Refused-Pw-7731';
    const accepted = PASSWORD;
    const wrong = 'Wrong-Pw-5519';
    const socket = server.socketDir;
    const connect = runShim(shimHome, [
      'team',
      'connect',
      `postgresql://ada:${refused}@/${database}?host=${socket}`,
    ]);
    assert.equal(connect.status, 1);
    assert.match(connect.stderr, /holds a password, and shim keeps no passwords/);
    assert.ok(!connect.stderr.includes(refused), connect.stderr);
    const keyword = runShim(shimHome, [
      'team',
      'connect',
      `host=${socket} password=${refused} user=ada`,
    ]);
    assert.equal(keyword.status, 1);
    assert.ok(!keyword.stderr.includes(refused), keyword.stderr);
    for (const [pw, args] of [
      [accepted, ['team', 'status']],
      [accepted, ['sync']],
      [accepted, ['list', '--team']],
      [wrong, ['team', 'status']],
      [wrong, ['sync']],
      [wrong, ['doctor']],
    ] as const) {
      const run = runShim(shimHome, [...args], {
        cwd: clone,
        env: { SHIM_TEAM_URL: `postgresql://ada:${pw}@/${database}?host=${socket}` },
      });
      assert.ok(
        !`${run.stdout}${run.stderr}`.includes(pw),
        `${args.join(' ')} printed the password`,
      );
    }
    for (const pw of [refused, accepted, wrong])
      assert.deepEqual(filesHolding(shimHome, pw), [], `no file under SHIM_HOME holds ${pw}`);
  });
});
