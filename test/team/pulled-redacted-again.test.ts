/**
 * Once found, gone everywhere, across machines (issue 38): machine B restored A's work from the
 * team store while a value in it stood bare, and B's own session carried it on (its checkpoint,
 * sent to the team store). A learns later that the value is a secret and sends the redacted
 * version. B's next sync replaces the value in the copy it holds, in its own session's rows and,
 * through them, in the team store's copies of B's rows. A real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { redactStoredSession } from '../../src/app/checkpoint/redact-stored-session.ts';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { restoreAtStartup } from '../../src/app/restore/startup-restore.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { syncTeam } from '../../src/app/team/team-sync.ts';
import { redactTextSync, SecretMemory } from '../../src/redact/redact.ts';
import { B62, madeUp } from '../../src/redact/made-up.test-helper.ts';
import { DEFAULT_SETTINGS } from '../../src/store/config/config.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore } from '../helpers/store.ts';
import { testAgents } from '../helpers/agents.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

describe('a copy pulled from the team store, after its machine learned a secret in it', () => {
  test('is redacted on the machine that pulled it, with what that machine built on it', async () => {
    const database = await server.createDatabase();
    const url = server.url(database);
    const repository = await openTeamRepository({ url, migrate: true });
    const a = openTempStore();
    const b = openTempStore();
    try {
      const value = madeUp(0x9b11).gen(B62, 36);
      const request = `deploy the importer with ${value} today`;
      const cloneA = makeClone('app');
      const cloneB = makeClone('work-copy');
      const writerA = { machine: 'laptop-a', osUser: 'ada' };
      const sendA = () =>
        replicateToTeam({
          store: createCommandStore(a.db),
          home: a.home,
          repository,
          writer: writerA,
        });

      // A: the value bare in a request, sent to the team store as it stood.
      const sessionA = randomUUID();
      a.sessions.touch({ agent: 'claude', sessionId: sessionA, cwd: cloneA }, minutesAgo(20));
      const draft = draftIn(cloneA, sessionA, minutesAgo(20));
      draft.conversationState = { ...draft.conversationState, userRequests: [request] };
      a.checkpoints.save(draft);
      await sendA();

      // B pulls it, a new session restores it and goes on (its checkpoint carries the request).
      const config = { ...DEFAULT_SETTINGS, team: { url, resume: true, retentionDays: 90 } };
      const env = { SHIM_MACHINE: 'desk-b' };
      const syncB = () =>
        syncTeam({ store: createCommandStore(b.db), home: b.home, env, config, cwd: cloneB });
      b.sessions.touch({ agent: 'claude', sessionId: randomUUID(), cwd: cloneB }, minutesAgo(120));
      assert.equal((await syncB())?.pulled, 1);
      const sessionB = randomUUID();
      const restore = await restoreAtStartup(createCommandStore(b.db), {
        sessionId: sessionB,
        agents: testAgents,
        cwd: cloneB,
        home: b.home,
        env,
        now: Date.now(),
        teamResume: true,
      });
      assert.equal(restore?.kind, 'team');
      b.sessions.touch({ agent: 'claude', sessionId: sessionB, cwd: cloneB }, minutesAgo(10));
      const own = draftIn(cloneB, sessionB, minutesAgo(10));
      own.conversationState = {
        ...own.conversationState,
        userRequests: [`(earlier session) ${request}`, 'now finish the importer'],
      };
      b.checkpoints.save(own);
      await syncB();
      const rawIn = (db: typeof a.db) =>
        (db.prepare('SELECT id FROM checkpoints').all() as Array<{ id: string }>).filter((r) =>
          JSON.stringify(createCommandStore(db).checkpoints.getById(r.id)).includes(value),
        ).length;
      const rawOnServer = async () =>
        (await server.sql(database, 'SELECT body::text AS body FROM shim_checkpoints')).rows.filter(
          (r) => String(r.body).includes(value),
        ).length;
      assert.equal(rawIn(b.db), 2, "B's copy of A's checkpoint and B's own hold the value");
      assert.equal(await rawOnServer(), 2);

      // A learns what the value is; its rows go again, redacted.
      const memory = new SecretMemory();
      redactTextSync(`export IMPORTER_TOKEN=${value}`, memory);
      redactStoredSession(createCommandStore(a.db), sessionA, memory);
      await sendA();
      assert.equal(await rawOnServer(), 1, "only B's row is left raw on the server");

      // B's worker syncs (twice: what the first redacts goes out with the next).
      await syncB();
      await syncB();
      assert.equal(rawIn(b.db), 0, 'the value is in no checkpoint on B');
      assert.equal(await rawOnServer(), 0, 'nor in the team store');
      const ownNow = JSON.stringify(createCommandStore(b.db).checkpoints.getById(own.id));
      assert.match(ownNow, /deploy the importer with \[REDACTED:[\w-]+\] today/);
      assert.match(ownNow, /now finish the importer/);
    } finally {
      a.dispose();
      b.dispose();
      await repository.close();
    }
  });
});
