/**
 * A child process for the team store's load and kill -9 tests (which start it compiled:
 * test/helpers/script-process.ts). Run by hand with
 * `node --import tsx test/team/replication-worker.ts <mode> <SHIM_HOME> <url> <machine> [n]`:
 *
 * - `write-and-send <n>`: saves n checkpoints in a clone under SHIM_HOME, replicating after every
 *   100 (as the worker does while hooks keep writing), then until nothing waits; prints
 *   `done <ids>` (the ids it saved, comma-joined) and exits 0.
 * - `send`: prints `ready`, replicates in batches of 20 with a 1 ms lease (a killed worker's
 *   batch is due again at once), printing `written <n>` after each batch reaches the server and
 *   before it is marked delivered — where a kill -9 hurts most — then `done`.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { CheckpointRepository } from '../../src/store/checkpoints/checkpoint-repository.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { SessionRepository } from '../../src/store/checkpoints/session-repository.ts';
import { draftIn, REMOTE } from './team-fixture.ts';

const [mode, home, url, machine, count] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string?,
];
const print = (line: string) => writeSync(1, `${line}\n`);
const writer = { machine, osUser: 'load' };
// One CommonJS bundle when compiled (test/helpers/script-process.ts): no top-level await.
async function main(): Promise<void> {
  const db = openDatabase(home);
  const repository = await openTeamRepository({ url });

  if (mode === 'write-and-send') {
    const clone = join(home, 'clone');
    mkdirSync(clone, { recursive: true });
    execFileSync('git', ['init', '-q', clone]);
    execFileSync('git', ['-C', clone, 'remote', 'add', 'origin', REMOTE]);
    const sessionId = randomUUID();
    new SessionRepository(db).touch(
      { agent: 'claude', sessionId, cwd: clone },
      new Date().toISOString(),
    );
    const checkpoints = new CheckpointRepository(db);
    const ids: string[] = [];
    for (let i = 0; i < Number(count); i++) {
      const draft = draftIn(clone, sessionId, new Date(Date.now() + i).toISOString());
      checkpoints.save(draft);
      ids.push(draft.id);
      if ((i + 1) % 100 === 0)
        await replicateToTeam({ store: createCommandStore(db), home, repository, writer });
    }
    for (;;) {
      const result = await replicateToTeam({
        store: createCommandStore(db),
        home,
        repository,
        writer,
        retryMs: () => 0,
      });
      if (result.waiting === 0) break;
    }
    print(`done ${ids.join(',')}`);
  } else {
    print('ready');
    await replicateToTeam({
      store: createCommandStore(db),
      home,
      repository,
      writer,
      batchSize: 20,
      leaseMs: 1,
      retryMs: () => 0,
      afterWrite: (n) => print(`written ${n}`),
    });
    print('done');
  }
  await repository.close();
  db.close();
}

void main();
