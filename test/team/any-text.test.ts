/**
 * Any text travels: a session whose requests hold U+0000 (which PostgreSQL refuses in `text` and
 * `jsonb`) and a lone surrogate reaches a real server and comes back as it was on the other
 * machine; a row the server refuses for good is set aside with one line — the rest of its batch
 * arrives, nothing is retried, `team status` says so.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { pullTeamWork } from '../../src/app/team/pull-team-work.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { getTeamStatus } from '../../src/app/team/team-status.ts';
import { DEFAULT_SETTINGS } from '../../src/store/config/config.ts';
import { TeamWorkCache } from '../../src/store/team/team-work-cache.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

/** shim.log's entries. */
function readLogEntries(home: string): Array<{ message: string }> {
  const path = join(home, 'logs', 'shim.log');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { message: string });
}

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

describe('any text reaches the team store', () => {
  test('a session with NUL and a lone surrogate arrives, and comes back byte for byte', async () => {
    const url = server.url(await server.createDatabase());
    const repository = await openTeamRepository({ url, migrate: true });
    const a = openTempStore();
    const b = openTempStore();
    try {
      const clone = makeClone('app');
      const sessionId = randomUUID();
      a.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, minutesAgo(3));
      const request = 'parse the log\u0000line, keep the \ud83d half and the \uE000 escape';
      const base = draftIn(clone, sessionId, minutesAgo(3));
      a.checkpoints.save({
        ...base,
        conversationState: { ...base.conversationState, userRequests: [request] },
      });
      const sent = await replicateToTeam({
        store: createCommandStore(a.db),
        home: a.home,
        repository,
        writer: { machine: 'A', osUser: 'ada' },
      });
      assert.deepEqual([sent.sent, sent.setAside, sent.waiting, sent.error], [2, 0, 0, null]);
      b.sessions.touch(
        { agent: 'claude', sessionId: randomUUID(), cwd: makeClone('b') },
        minutesAgo(60),
      );
      await pullTeamWork({
        store: createCommandStore(b.db),
        repository,
        writer: { machine: 'B', osUser: 'bob' },
        now: new Date(),
        resumeWindowDays: 7,
      });
      const work = new TeamWorkCache(b.db).getUntaken('github.com/acme/app');
      assert.equal(work?.checkpoint.conversationState.userRequests[0], request);
      // The server's words are searchable as words.
      const hits = await repository.search('parse log', {
        projectIds: ['github.com/acme/app'],
        limit: 5,
      });
      assert.equal(hits.length, 1);
    } finally {
      a.dispose();
      b.dispose();
      await repository.close();
    }
  });

  test('a row the server refuses for good is set aside with one line; its batch arrives', async () => {
    const url = server.url(await server.createDatabase());
    const repository = await openTeamRepository({ url, migrate: true });
    const store = openTempStore();
    try {
      const clone = makeClone('app');
      const sessionId = randomUUID();
      store.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, minutesAgo(3));
      store.checkpoints.save(draftIn(clone, sessionId, minutesAgo(4)));
      // A date before 4713 BC: PostgreSQL's timestamp cannot hold it (SQLSTATE 22008).
      const bad = draftIn(clone, sessionId, '-010000-01-01T00:00:00.000Z');
      store.checkpoints.save(bad);
      store.checkpoints.save(draftIn(clone, sessionId, minutesAgo(2)));
      const writer = { machine: 'A', osUser: 'ada' };
      const first = await replicateToTeam({
        store: createCommandStore(store.db),
        home: store.home,
        repository,
        writer,
      });
      assert.deepEqual([first.sent, first.setAside, first.waiting, first.error], [3, 1, 0, null]);
      assert.equal(await repository.count('checkpoint'), 2);
      const lines = readLogEntries(store.home).filter((e) => /refuses checkpoint/.test(e.message));
      assert.equal(lines.length, 1, 'one line');
      assert.match(lines[0]!.message, new RegExp(`checkpoint ${bad.id.slice(0, 8)}.*set aside`));
      // Never retried: the next pass sends nothing and says nothing more.
      const again = await replicateToTeam({
        store: createCommandStore(store.db),
        home: store.home,
        repository,
        writer,
      });
      assert.deepEqual([again.sent, again.setAside, again.waiting], [0, 0, 0]);
      assert.equal(readLogEntries(store.home).filter((e) => /refuses/.test(e.message)).length, 1);
      const status = await getTeamStatus({
        store: createCommandStore(store.db),
        home: store.home,
        env: { SHIM_TEAM_URL: url },
        config: DEFAULT_SETTINGS,
        now: new Date(),
      });
      assert.equal(status.waiting, 0);
      assert.equal(status.setAside, 1);
      assert.match(String(status.lastSetAside), /out of range|timestamp/);
    } finally {
      store.dispose();
      await repository.close();
    }
  });
});
