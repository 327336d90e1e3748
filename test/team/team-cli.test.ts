/**
 * `shim team` as a user runs it, against a real PostgreSQL server: connect (the schema created,
 * the URL kept without a password), status --json in its contract shape, sync, disconnect; and
 * each bad input — a password in the URL or the config, an unreachable server, a wrong password,
 * a server without shim's tables, a read-only role — as one clear line, and a doctor line.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CheckpointRepository } from '../../src/store/checkpoints/checkpoint-repository.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { SessionRepository } from '../../src/store/checkpoints/session-repository.ts';
import { runShim } from '../helpers/cli.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { withSharedCodeCache } from '../helpers/shared-code-cache.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
  await server.sql('postgres', "CREATE ROLE ada LOGIN PASSWORD 'right-horse'");
  await server.sql('postgres', "CREATE ROLE reader LOGIN PASSWORD 'reader-pass'");
});
after(() => server?.dispose());

// Homes share the V8 code caches of the ones before (helpers/shared-code-cache.ts): a home that is
// not about the cache runs as a user's warm one does.
const newHome = () => withSharedCodeCache(join(makeTempDir('shim-team-cli-'), 'home'));
/** A failed command's stderr: one line saying what happened, one saying the fix; the first. */
function oneLineError(text: string): string {
  const lines = text.trim().split('\n');
  assert.equal(lines.length, 2, `an error line and its fix, nothing else:\n${text}`);
  return lines[0]!;
}

function statusJson(home: string, env: Record<string, string> = {}) {
  const run = runShim(home, ['team', 'status', '--json'], { env });
  assert.equal(run.status, 0, run.stderr);
  const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(parsed), ['connected', 'waiting', 'lagSeconds', 'lastError']);
  return parsed as {
    connected: boolean;
    waiting: number;
    lagSeconds: number | null;
    lastError: string | null;
  };
}

function doctorTeamLine(home: string, env: Record<string, string> = {}): string {
  const run = runShim(home, ['doctor', '--json'], { env });
  const report = JSON.parse(run.stdout) as {
    checks: Array<{ id: string; status: string; detail: string; fix: string | null }>;
  };
  const team = report.checks.find((c) => c.id === 'team');
  assert.ok(team, 'doctor has a team line');
  return `${team.status}: ${team.detail} | ${team.fix ?? ''}`;
}

describe('shim team', () => {
  test('connect, status, sync, disconnect', async () => {
    const home = newHome();
    const url = server.url(await server.createDatabase());
    const connect = runShim(home, ['team', 'connect', url]);
    assert.equal(connect.status, 0, connect.stderr);
    assert.match(connect.stdout, /connected to the team store at postgres@\/[^ ]+\/shim_test/);
    assert.equal(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')).team.url, url);
    // A session's checkpoints in a clone, written to the local store, go with shim sync.
    const clone = makeClone('app');
    const db = openDatabase(home);
    const sessionId = randomUUID();
    new SessionRepository(db).touch(
      { agent: 'claude', sessionId, cwd: clone },
      new Date().toISOString(),
    );
    for (let i = 0; i < 3; i++)
      new CheckpointRepository(db).save(draftIn(clone, sessionId, new Date().toISOString()));
    db.close();
    const before = statusJson(home);
    assert.equal(before.connected, true);
    // The worker connect started may already have sent some (it races this look).
    assert.ok(before.waiting <= 4, `waiting ${before.waiting}`);
    assert.equal(typeof before.lagSeconds, 'number');
    const sync = runShim(home, ['sync'], { cwd: clone });
    assert.equal(sync.status, 0, sync.stderr);
    // (The worker connect started may have sent some of them already.)
    assert.match(sync.stderr, /team store: sent \d+, pulled 0 unfinished, waiting 0/);
    assert.deepEqual(statusJson(home), {
      connected: true,
      waiting: 0,
      lagSeconds: 0,
      lastError: null,
    });
    assert.match(doctorTeamLine(home), /^ok: reachable/);
    const list = runShim(home, ['list', '--team', '--json'], { cwd: clone });
    assert.equal(list.status, 0, list.stderr);
    assert.equal((JSON.parse(list.stdout) as unknown[]).length, 1);
    const disconnect = runShim(home, ['team', 'disconnect']);
    assert.equal(disconnect.status, 0);
    assert.equal(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')).team, undefined);
    assert.deepEqual(statusJson(home), {
      connected: false,
      waiting: 0,
      lagSeconds: null,
      lastError: null,
    });
  });

  test('a URL with a password is refused, on the command line and in the config', () => {
    const home = newHome();
    const run = runShim(home, ['team', 'connect', 'postgres://ada:s3cret@db.example/shim']);
    assert.notEqual(run.status, 0);
    assert.match(oneLineError(run.stderr), /holds a password, and shim keeps no passwords/);
    assert.ok(!run.stderr.includes('s3cret'), 'the password is not echoed');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ team: { url: 'postgres://ada:s3cret@db.example/shim' } }),
    );
    const status = statusJson(home);
    assert.equal(status.connected, false);
    assert.match(String(status.lastError), /config team.url holds a password/);
    assert.match(
      doctorTeamLine(home),
      /^warn: config team.url holds a password.*PGPASSWORD or ~\/\.pgpass/,
    );
  });

  test('an unreachable server: one line, and the rows wait', () => {
    const home = newHome();
    const url = `postgresql://postgres@localhost/none?host=${encodeURIComponent(join(makeTempDir('nosock-'), 'gone'))}`;
    const run = runShim(home, ['team', 'connect', url]);
    assert.notEqual(run.status, 0);
    assert.match(
      oneLineError(run.stderr),
      /cannot reach the team store at postgres@\/[^ ]+\/gone\/none: ENOENT/,
    );
    const status = statusJson(home, { SHIM_TEAM_URL: url });
    assert.equal(status.connected, false);
    assert.match(String(status.lastError), /cannot reach the team store/);
    assert.match(doctorTeamLine(home, { SHIM_TEAM_URL: url }), /^warn: cannot reach/);
  });

  test('sslmode as libpq means it: an error stays one line and its fix, no driver warning', () => {
    const home = newHome();
    for (const mode of ['require', 'prefer', 'verify-full']) {
      const run = runShim(home, [
        'team',
        'connect',
        `postgres://ada@127.0.0.1:9/shim?sslmode=${mode}`,
      ]);
      assert.notEqual(run.status, 0);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 2, `sslmode=${mode}: the error and its fix only:\n${run.stderr}`);
      assert.match(
        lines[0]!,
        /cannot reach the team store at ada@127\.0\.0\.1:9\/shim: ECONNREFUSED/,
      );
    }
  });

  test('a wrong password: one line naming the user and where the password comes from', async () => {
    const home = newHome();
    const url = server.url(await server.createDatabase(), 'ada');
    const run = runShim(home, ['team', 'connect', url], { env: { PGPASSWORD: 'wrong-horse' } });
    assert.notEqual(run.status, 0);
    assert.match(
      oneLineError(run.stderr),
      /refused ada: password authentication failed for user "ada"/,
    );
    assert.match(run.stderr, /PGPASSWORD or add the password to ~\/\.pgpass/);
    // No password at all (no PGPASSWORD, no ~/.pgpass): the same, said so.
    const none = runShim(home, ['team', 'connect', url], {
      env: { HOME: makeTempDir('no-pgpass-'), PGPASSFILE: '' },
    });
    assert.match(oneLineError(none.stderr), /wants a password for ada and none was given/);
    assert.match(
      doctorTeamLine(home, { SHIM_TEAM_URL: url, PGPASSWORD: 'wrong-horse' }),
      /^warn: .*refused ada/,
    );
  });

  test('~/.pgpass gives the password, as libpq does', async () => {
    const home = newHome();
    const database = await server.createDatabase();
    await server.sql(database, 'GRANT ALL ON SCHEMA public TO ada');
    const fakeHome = makeTempDir('pgpass-home-');
    const pgpass = join(fakeHome, '.pgpass');
    writeFileSync(pgpass, `*:*:${database}:ada:right-horse\n`, { mode: 0o600 });
    const run = runShim(home, ['team', 'connect', server.url(database, 'ada')], {
      env: { PGPASSFILE: pgpass, HOME: fakeHome },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!readFileSync(join(home, 'config.json'), 'utf8').includes('right-horse'));
  });

  test('a server without the schema, and a read-only role', async () => {
    const database = await server.createDatabase();
    const url = server.url(database, 'reader');
    // The reader may not create shim's tables: connect says so.
    const home = newHome();
    const run = runShim(home, ['team', 'connect', url], { env: { PGPASSWORD: 'reader-pass' } });
    assert.notEqual(run.status, 0);
    assert.match(
      oneLineError(run.stderr),
      /reader may not write to the team store .*permission denied/,
    );
    // Configured anyway (SHIM_TEAM_URL): the worker and status say the tables are missing.
    const env = { SHIM_TEAM_URL: url, PGPASSWORD: 'reader-pass' };
    assert.match(String(statusJson(home, env).lastError), /has no shim tables/);
    assert.match(
      doctorTeamLine(home, env),
      /^warn: .*has no shim tables.*\| run shim team connect/,
    );
    // The owner creates them and lets the reader read only.
    const owner = runShim(newHome(), ['team', 'connect', server.url(database)]);
    assert.equal(owner.status, 0, owner.stderr);
    await server.sql(database, 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader');
    const readOnly = runShim(home, ['team', 'connect', url], {
      env: { PGPASSWORD: 'reader-pass' },
    });
    assert.equal(readOnly.status, 0, readOnly.stderr);
    assert.match(readOnly.stdout, /read-only: this role may read/);
    const status = statusJson(home, { PGPASSWORD: 'reader-pass' });
    assert.equal(status.connected, true);
    assert.match(String(status.lastError), /may read the team store but not write/);
    assert.match(
      doctorTeamLine(home, { PGPASSWORD: 'reader-pass' }),
      /^warn: .*not write.*shim_writer/,
    );
  });
});
