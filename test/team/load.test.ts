/**
 * The team store under load and under kill -9, on a real PostgreSQL server: 8 writers (each its
 * own machine and SQLite store) × 1,000 checkpoints at once — none lost, none doubled; and a
 * replication worker killed -9 at random 50 times, mostly between a batch reaching the server and
 * being marked sent — every row there exactly once in the end.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { openDatabase, withWriteTransaction } from '../../src/store/sqlite/database.ts';
import { TeamReplicationQueue } from '../../src/store/team/team-replication-queue.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { compiledScript } from '../helpers/script-process.ts';
import { openTempStore, REPO_ROOT } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

const WORKER = join(import.meta.dirname, 'replication-worker.ts');

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

type Child = {
  lines: string[];
  exit: Promise<number | null>;
  kill: () => void;
  waitFor: (p: (l: string) => boolean) => Promise<boolean>;
};

function runWorker(args: string[]): Child {
  const child = spawn(process.execPath, [compiledScript(WORKER), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
    waiters.splice(0).forEach((w) => w());
  });
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) process.stderr.write(stderr);
      waiters.splice(0).forEach((w) => w());
      resolve(code);
    }),
  );
  return {
    lines,
    exit,
    kill: () => child.kill('SIGKILL'),
    waitFor: async (p) => {
      for (;;) {
        if (lines.some(p)) return true;
        if (child.exitCode !== null || child.signalCode !== null) return false;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}

test('8 writers × 1,000 checkpoints into one server: none lost, none doubled', async () => {
  const database = await server.createDatabase();
  const url = server.url(database);
  (await openTeamRepository({ url, migrate: true })).close();
  const children = Array.from({ length: 8 }, (_, i) =>
    runWorker([
      'write-and-send',
      join(makeTempDir('shim-load-'), 'home'),
      url,
      `machine-${i}`,
      '1000',
    ]),
  );
  const codes = await Promise.all(children.map((c) => c.exit));
  assert.deepEqual(codes, Array(8).fill(0));
  const saved = children.flatMap((c) =>
    c.lines
      .find((l) => l.startsWith('done '))!
      .slice(5)
      .split(','),
  );
  assert.equal(saved.length, 8000);
  const rows = await server.sql(database, 'SELECT id, machine FROM shim_checkpoints');
  assert.equal(rows.rows.length, 8000, 'one row per checkpoint');
  const onServer = new Set(rows.rows.map((r: { id: string }) => r.id));
  assert.deepEqual(
    saved.filter((id) => !onServer.has(id)),
    [],
    'none lost',
  );
  const perMachine = await server.sql(
    database,
    'SELECT machine, COUNT(*)::int AS n FROM shim_checkpoints GROUP BY machine ORDER BY machine',
  );
  assert.deepEqual(
    perMachine.rows.map((r: { n: number }) => r.n),
    Array(8).fill(1000),
  );
  assert.equal(
    (await server.sql(database, 'SELECT COUNT(*)::int AS n FROM shim_sessions')).rows[0].n,
    8,
  );
});

test('the worker killed -9 at random 50 times mid-batch: every row there once', async () => {
  const database = await server.createDatabase();
  const url = server.url(database);
  (await openTeamRepository({ url, migrate: true })).close();
  const store = openTempStore();
  try {
    const clone = makeClone('app');
    const sessionId = randomUUID();
    store.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, new Date().toISOString());
    const ids: string[] = [];
    // The 1,500 rows the worker is to send, saved in one transaction: one commit (and fsync)
    // instead of 1,500 — the same rows, ~7 s of wall and ~1 s of CPU less.
    withWriteTransaction(store.db, () => {
      for (let i = 0; i < 1500; i++) {
        const draft = draftIn(clone, sessionId, new Date(Date.now() + i).toISOString());
        store.checkpoints.save(draft);
        ids.push(draft.id);
      }
    });
    store.db.close();
    let killedAfterWrite = 0;
    for (let round = 0; round < 50; round++) {
      const child = runWorker(['send', store.home, url, 'killer']);
      // Most kills land right after a batch reached the server and before it was marked sent;
      // the rest at a random point of the sending.
      const afterWrites = 1 + Math.floor(Math.random() * 3);
      if (round % 5 === 4) {
        await child.waitFor((l) => l === 'ready');
        await new Promise((r) => setTimeout(r, Math.random() * 40));
      } else if (
        await child.waitFor(
          (l) =>
            l.startsWith('written') &&
            child.lines.filter((x) => x.startsWith('written')).length >= afterWrites,
        )
      ) {
        killedAfterWrite++;
      }
      child.kill();
      await child.exit;
    }
    assert.ok(killedAfterWrite >= 30, `kills between write and mark: ${killedAfterWrite}`);
    const db = openDatabase(store.home);
    const repository = await openTeamRepository({ url });
    try {
      for (;;) {
        const result = await replicateToTeam({
          store: createCommandStore(db),
          home: store.home,
          repository,
          writer: { machine: 'killer', osUser: 'load' },
          retryMs: () => 0,
          leaseMs: 1,
        });
        if (result.waiting === 0) break;
      }
      assert.equal(new TeamReplicationQueue(db).status().waiting, 0);
    } finally {
      await repository.close();
      db.close();
    }
    const rows = await server.sql(database, 'SELECT id FROM shim_checkpoints');
    assert.equal(rows.rows.length, 1500, 'none doubled');
    const onServer = new Set(rows.rows.map((r: { id: string }) => r.id));
    assert.deepEqual(
      ids.filter((id) => !onServer.has(id)),
      [],
      'none lost',
    );
  } finally {
    store.dispose();
  }
});
