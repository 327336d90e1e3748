import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  describeConn,
  hasPassword,
  parseConnString,
  readServiceEntry,
  resolveConn,
  withoutPassword,
} from './conninfo.ts';

const bare = { HOME: '/nonexistent', USER: 'ada' };

describe('libpq connection strings', () => {
  test('the URI forms libpq takes', () => {
    assert.deepEqual(parseConnString('postgresql://ada@/shim?host=/run/postgresql'), {
      host: '/run/postgresql',
      user: 'ada',
      dbname: 'shim',
    });
    assert.deepEqual(parseConnString('postgresql:///shim?host=/tmp/sock&port=5433'), {
      host: '/tmp/sock',
      port: '5433',
      dbname: 'shim',
    });
    assert.deepEqual(parseConnString('postgres://%2Fvar%2Frun%2Fpostgresql/shim'), {
      host: '/var/run/postgresql',
      dbname: 'shim',
    });
    assert.deepEqual(parseConnString('postgresql://ada:p%40ss@db1:5432,db2:5433,[::1]/shim'), {
      host: 'db1,db2,::1',
      port: '5432,5433,5432',
      user: 'ada',
      password: 'p@ss',
      dbname: 'shim',
    });
    assert.deepEqual(parseConnString('postgresql://'), {});
    assert.deepEqual(parseConnString('postgresql://db/shim?sslmode=require&password=x'), {
      host: 'db',
      dbname: 'shim',
      sslmode: 'require',
      password: 'x',
    });
  });

  test('keyword/value pairs, quoted values and escapes', () => {
    assert.deepEqual(
      parseConnString("host=/run/postgresql  dbname = shim user='a b' password='it\\'s'"),
      {
        host: '/run/postgresql',
        dbname: 'shim',
        user: 'a b',
        password: "it's",
      },
    );
    assert.throws(() => parseConnString('host'), /keyword=value/);
    assert.throws(() => parseConnString('mysql://x/db'), /must be PostgreSQL, not mysql/);
  });

  test('a password is found wherever it is, and taken out without a trace', () => {
    for (const [text, expected] of [
      [
        'postgresql://ada:s3cret@db/shim?sslmode=require',
        'postgresql://ada@db/shim?sslmode=require',
      ],
      [
        'postgresql://ada@db/shim?password=s3cret&sslmode=require',
        'postgresql://ada@db/shim?sslmode=require',
      ],
      ["host=db password='s3cret' dbname=shim", 'host=db dbname=shim'],
    ] as const) {
      assert.equal(hasPassword(text), true, text);
      assert.equal(withoutPassword(text), expected);
      assert.ok(!describeConn(text, bare).includes('s3cret'));
    }
    assert.equal(hasPassword('postgresql://ada@/shim?host=/run/postgresql'), false);
  });

  test('service file, then the environment, then the defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shim-conninfo-'));
    const file = join(dir, 'services.conf');
    writeFileSync(file, '# team\n[other]\nhost=x\n[team]\nhost=/sock\ndbname=shimdb\nport=6000\n');
    assert.deepEqual(readServiceEntry(file, 'team'), {
      host: '/sock',
      dbname: 'shimdb',
      port: '6000',
    });
    const conn = resolveConn('service=team user=bob', {
      ...bare,
      PGSERVICEFILE: file,
      PGPORT: '7000',
      PGPASSWORD: 'pw',
    });
    assert.deepEqual(conn.targets, [{ host: '/sock', port: 6000, socket: true }]);
    assert.equal(conn.user, 'bob');
    assert.equal(conn.database, 'shimdb');
    assert.equal(conn.password, 'pw');
    const fromEnv = resolveConn('postgresql://', {
      ...bare,
      PGHOST: 'a,b',
      PGPORT: '1,2',
      PGUSER: 'eve',
    });
    assert.deepEqual(
      fromEnv.targets.map((t) => `${t.host}:${t.port}`),
      ['a:1', 'b:2'],
    );
    assert.equal(fromEnv.database, 'eve');
    assert.throws(
      () => resolveConn('service=nope', { ...bare, PGSERVICEFILE: file }),
      /no service "nope"/,
    );
    assert.throws(() => resolveConn('host=a,b,c port=1,2', bare), /3 hosts but 2 ports/);
  });
});
