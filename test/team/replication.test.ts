/**
 * Replication into a real PostgreSQL server (test/helpers/postgres.ts): rows arrive with the
 * project as every machine names it, the machine and the OS user; sending again changes nothing;
 * a server that is down holds nothing up and loses nothing; another machine's unfinished work is
 * pulled into the local store for the next session's restore.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { pullTeamWork } from '../../src/app/team/pull-team-work.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { syncTeam } from '../../src/app/team/team-sync.ts';
import { DEFAULT_SETTINGS } from '../../src/store/config/config.ts';
import type { TeamRepository } from '../../src/store/ports/team-repository.ts';
import { TeamWorkCache } from '../../src/store/team/team-work-cache.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

async function freshRepository(): Promise<{ url: string; repository: TeamRepository }> {
  const url = server.url(await server.createDatabase());
  return { url, repository: await openTeamRepository({ url, migrate: true }) };
}

describe('replication to the team store', () => {
  test('rows arrive once, named by project, machine and user; sending again changes nothing', async () => {
    const { repository, url } = await freshRepository();
    const store = openTempStore();
    try {
      const clone = makeClone('app');
      const sessionId = randomUUID();
      store.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, at(30));
      for (let i = 0; i < 5; i++) store.checkpoints.save(draftIn(clone, sessionId, at(30 - i)));
      const writer = { machine: 'laptop', osUser: 'ada' };
      const first = await replicateToTeam({
        store: createCommandStore(store.db),
        home: store.home,
        repository,
        writer,
        batchSize: 2,
      });
      assert.equal(first.sent, 6);
      assert.equal(first.waiting, 0);
      assert.equal(first.error, null);
      assert.equal(await repository.count('checkpoint'), 5);
      assert.equal(await repository.count('session'), 1);
      const rows = await server.sql(
        url.split('/').pop()!.split('?')[0]!,
        'SELECT DISTINCT project_id, project_path, machine, os_user FROM shim_checkpoints',
      );
      assert.deepEqual(rows.rows, [
        { project_id: 'github.com/acme/app', project_path: '', machine: 'laptop', os_user: 'ada' },
      ]);
      // Nothing new: nothing sent.
      assert.equal(
        (
          await replicateToTeam({
            store: createCommandStore(store.db),
            home: store.home,
            repository,
            writer,
          })
        ).sent,
        0,
      );
      // Everything queued again (as after a worker killed between the commit and the mark): the
      // server keeps one row per id.
      store.db.exec("UPDATE sync_outbox SET status = 'pending' WHERE tracker = 'team'");
      assert.equal(
        (
          await replicateToTeam({
            store: createCommandStore(store.db),
            home: store.home,
            repository,
            writer,
          })
        ).sent,
        6,
      );
      assert.equal(await repository.count('checkpoint'), 5);
      assert.equal(await repository.count('session'), 1);
    } finally {
      store.dispose();
      await repository.close();
    }
  });

  test('a secret that reached the store is redacted again before it leaves', async () => {
    const { repository, url } = await freshRepository();
    const store = openTempStore();
    try {
      const clone = makeClone('app');
      const sessionId = randomUUID();
      const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
      const draft = draftIn(clone, sessionId, at(1));
      draft.conversationState = {
        ...draft.conversationState,
        userRequests: [`deploy with token ${secret}`],
      };
      store.checkpoints.save(draft);
      await replicateToTeam({
        store: createCommandStore(store.db),
        home: store.home,
        repository,
        writer: { machine: 'm', osUser: 'u' },
      });
      const rows = await server.sql(
        url.split('/').pop()!.split('?')[0]!,
        'SELECT body::text AS body FROM shim_checkpoints',
      );
      assert.equal(rows.rows.length, 1);
      assert.ok(!String(rows.rows[0].body).includes(secret), 'the token left the machine');
      assert.match(String(rows.rows[0].body), /deploy with token/);
    } finally {
      store.dispose();
      await repository.close();
    }
  });

  test('the server down: rows wait with the reason, then catch up when it is back', async () => {
    const url = server.url(await server.createDatabase());
    (await openTeamRepository({ url, migrate: true })).close();
    const store = openTempStore();
    const config = { ...DEFAULT_SETTINGS, team: { url, resume: true, retentionDays: 90 } };
    try {
      const clone = makeClone('app');
      const sessionId = randomUUID();
      store.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, at(10));
      store.checkpoints.save(draftIn(clone, sessionId, at(10)));
      server.stop();
      for (let i = 0; i < 20; i++) store.checkpoints.save(draftIn(clone, sessionId, at(9)));
      const down = await syncTeam({
        store: createCommandStore(store.db),
        home: store.home,
        env: {},
        config,
      });
      assert.equal(down?.connected, false);
      assert.equal(down?.waiting, 22);
      assert.match(String(down?.error), /cannot reach the team store/);
      server.start();
      // Due again after the backoff: a later pass (the clock moved on) sends them all.
      const later = () => new Date(Date.now() + 3_600_000);
      const back = await syncTeam({
        store: createCommandStore(store.db),
        home: store.home,
        env: {},
        config,
        now: later,
      });
      assert.equal(back?.connected, true);
      assert.equal(back?.error, null);
      assert.equal(back?.sent, 22);
      assert.equal(back?.waiting, 0);
      const repository = await openTeamRepository({ url });
      assert.equal(await repository.count('checkpoint'), 21);
      await repository.close();
    } finally {
      store.dispose();
    }
  });

  test('search on the server: words match through the tsvector, the headline marks them, tsquery syntax is words', async () => {
    const { repository } = await freshRepository();
    const store = openTempStore();
    try {
      const clone = makeClone('app');
      const sessionId = randomUUID();
      store.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, at(10));
      const base = draftIn(clone, sessionId, at(10));
      const draft = {
        ...base,
        conversationState: {
          ...base.conversationState,
          userRequests: ['teach the statusline to blink when the window fills'],
        },
      };
      store.checkpoints.save(draft);
      const writer = { machine: 'laptop', osUser: 'ada' };
      await replicateToTeam({
        store: createCommandStore(store.db),
        home: store.home,
        repository,
        writer,
      });
      const scope = { projectIds: ['github.com/acme/app'], limit: 5 };
      const hits = await repository.search('statusline blink', scope);
      assert.deepEqual(
        hits.map((h) => [h.checkpointId, h.machine, h.osUser]),
        [[draft.id, 'laptop', 'ada']],
      );
      assert.match(hits[0]!.snippet, /\[statusline\]/);
      assert.deepEqual(await repository.search('statusline -blink', scope), []);
      assert.deepEqual(await repository.search('"unclosed & | ! :* (', scope), []);
      assert.deepEqual(
        await repository.search('statusline', { ...scope, projectIds: ['github.com/acme/other'] }),
        [],
      );
    } finally {
      store.dispose();
      await repository.close();
    }
  });

  test("another machine's unfinished work in the same repository is pulled for the next session", async () => {
    const { repository } = await freshRepository();
    const a = openTempStore();
    const b = openTempStore();
    try {
      const cloneA = makeClone('app-on-a');
      const cloneB = makeClone('somewhere-else');
      const sessionA = randomUUID();
      a.sessions.touch({ agent: 'claude', sessionId: sessionA, cwd: cloneA }, at(20));
      const newest = draftIn(cloneA, sessionA, at(20));
      a.checkpoints.save(draftIn(cloneA, sessionA, at(25)));
      a.checkpoints.save(newest);
      await replicateToTeam({
        store: createCommandStore(a.db),
        home: a.home,
        repository,
        writer: { machine: 'A', osUser: 'ada' },
      });
      // B worked in its clone earlier; its own older checkpoint is there.
      const sessionB = randomUUID();
      b.sessions.touch({ agent: 'claude', sessionId: sessionB, cwd: cloneB }, at(60));
      b.checkpoints.save(draftIn(cloneB, sessionB, at(60)));
      const writerB = { machine: 'B', osUser: 'bob' };
      await replicateToTeam({
        store: createCommandStore(b.db),
        home: b.home,
        repository,
        writer: writerB,
      });
      const pulled = await pullTeamWork({
        store: createCommandStore(b.db),
        repository,
        writer: writerB,
        now: new Date(),
        resumeWindowDays: 7,
      });
      assert.equal(pulled, 1);
      const work = new TeamWorkCache(b.db).getUntaken('github.com/acme/app');
      assert.equal(work?.checkpoint.id, newest.id);
      assert.equal(work?.machine, 'A');
      assert.equal(work?.osUser, 'ada');
      assert.equal(work?.reason, 'interrupted');
      // A itself pulls nothing: the newest work is its own.
      assert.equal(
        await pullTeamWork({
          store: createCommandStore(a.db),
          repository,
          writer: { machine: 'A', osUser: 'ada' },
          now: new Date(),
          resumeWindowDays: 7,
        }),
        0,
      );
    } finally {
      a.dispose();
      b.dispose();
      await repository.close();
    }
  });

  test('a handoff left for the team is found in the same query as the newest checkpoint; once picked up, the checkpoint is', async () => {
    const { repository } = await freshRepository();
    const a = openTempStore();
    try {
      const clone = makeClone('app-on-a');
      const sessionId = randomUUID();
      a.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, at(30));
      const handedOff = draftIn(clone, sessionId, at(30));
      const newest = draftIn(clone, sessionId, at(20));
      a.checkpoints.save(handedOff);
      a.checkpoints.save(newest);
      const handoff = a.handoffs.record({
        checkpointId: handedOff.id,
        sessionId,
        project: clone,
        path: `${clone}/handoff.md`,
        kind: 'team',
        createdAt: at(10),
      });
      await replicateToTeam({
        store: createCommandStore(a.db),
        home: a.home,
        repository,
        writer: { machine: 'A', osUser: 'ada' },
      });
      const since = at(7 * 24 * 60);
      const b = { machine: 'B', osUser: 'bob' };
      const [found] = await repository.newestUnfinished(['github.com/acme/app'], b, since);
      assert.equal(found?.reason, 'handoff');
      assert.equal(found?.handoffId, handoff.id);
      assert.equal(found?.checkpoint.id, handedOff.id);
      assert.equal(found?.machine, 'A');
      await repository.pickUpHandoff(handoff.id, randomUUID(), new Date().toISOString());
      const [after] = await repository.newestUnfinished(['github.com/acme/app'], b, since);
      assert.equal(after?.reason, 'interrupted');
      assert.equal(after?.checkpoint.id, newest.id);
      assert.equal(after?.handoffId, undefined);
      // Its writer finds nothing: the newest work is its own.
      assert.deepEqual(
        await repository.newestUnfinished(
          ['github.com/acme/app'],
          { machine: 'A', osUser: 'ada' },
          since,
        ),
        [],
      );
    } finally {
      a.dispose();
      await repository.close();
    }
  });
});
