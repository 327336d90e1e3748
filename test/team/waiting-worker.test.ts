/**
 * Nothing waits for a command: with the team store down, the workers that checkpoints start
 * (`shim sync --drain`) leave once they have tried, but one — one per SHIM_HOME — waits for the
 * retry, and `shim team status` says when it is; the server back, that worker sends every row
 * and leaves, with no command typed. A real PostgreSQL server, the real CLI.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CheckpointRepository } from '../../src/store/checkpoints/checkpoint-repository.ts';
import { SessionRepository } from '../../src/store/checkpoints/session-repository.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { lockHolder } from '../../src/store/sync/worker-locks.ts';
import { BIN, runShim } from '../helpers/cli.ts';
import { processesUnder, waitForProcessesUnder } from '../helpers/processes.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Resolves once `ready()` holds: a state the workers reach, read as they leave it (the limit only
 * turns a hung worker into a failure, it is not the expected wait).
 */
async function until(ready: () => boolean, limitMs = 180_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('the workers never settled');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A worker as a hook starts it. */
function startWorker(home: string, cwd: string, env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'sync', '--drain'], {
    cwd,
    env: { ...process.env, SHIM_HOME: home, ...env },
    stdio: 'ignore',
  });
  return { pid: child.pid!, child };
}

describe('the waiting worker', () => {
  test('the server down: one worker waits and says when; back up, every row arrives untyped', async (t) => {
    const database = await server.createDatabase();
    const url = server.url(database);
    const root = makeTempDir('shim-worker-');
    const home = join(root, 'home');
    const env = { SHIM_TEAM_RETRY_MS: '1500' };
    const connect = runShim(home, ['team', 'connect', url], { env });
    assert.equal(connect.status, 0, connect.stderr);
    // The worker connect starts ends before the rows below are queued: still running, it would
    // send the session's row while the server is up (seen once: waiting 12, sent 1).
    await waitForProcessesUnder(root);
    const clone = makeClone('app');
    const db = openDatabase(home);
    const sessionId = randomUUID();
    new SessionRepository(db).touch(
      { agent: 'claude', sessionId, cwd: clone },
      new Date().toISOString(),
    );
    server.stop();
    const checkpoints = new CheckpointRepository(db);
    for (let i = 0; i < 12; i++)
      checkpoints.save(draftIn(clone, sessionId, new Date(Date.now() + i).toISOString()));
    db.close();

    // Six checkpoints' workers, started at once as hooks would.
    const workers = Array.from({ length: 6 }, () => startWorker(home, clone, env));
    t.after(() => processesUnder(root).forEach((pid) => process.kill(pid, 'SIGKILL')));
    // Each leaves once it has tried, or is the one that waits (whichever took the lock first, as
    // the machine schedules them).
    await until(() =>
      workers.every((w) => w.child.exitCode !== null || lockHolder(home, 'wait', alive) === w.pid),
    );
    // One worker of the SHIM_HOME waits, and it is the only one running.
    await until(() => {
      const waiter = lockHolder(home, 'wait', alive);
      return waiter !== null && processesUnder(root).join() === String(waiter);
    });
    const waiter = lockHolder(home, 'wait', alive);
    assert.ok(waiter !== null, 'a worker waits');
    assert.deepEqual(processesUnder(root), [waiter], 'one waiting worker, no other');
    const status = runShim(home, ['team', 'status'], { env });
    assert.match(status.stdout, /waiting: 13/);
    assert.match(
      status.stdout,
      new RegExp(`next try (now|in \\d+ seconds?) \\(worker ${waiter} waits for it\\)`),
    );

    server.start();
    await waitForProcessesUnder(root);
    const sent = await server.sql(database, 'SELECT count(*)::int AS n FROM shim_checkpoints');
    assert.equal(sent.rows[0].n, 12, 'every checkpoint arrived');
    const after = runShim(home, ['team', 'status', '--json'], { env });
    assert.deepEqual(JSON.parse(after.stdout), {
      connected: true,
      waiting: 0,
      lagSeconds: 0,
      lastError: null,
    });
  });
});
