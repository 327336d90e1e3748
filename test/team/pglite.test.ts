/**
 * The fallback where no PostgreSQL server can run: PGlite (PostgreSQL in WASM) through pg's own
 * pool (`createPgConfig`), the same repository and replication code as on the real server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { pullTeamWork } from '../../src/app/team/pull-team-work.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { TeamWorkCache } from '../../src/store/team/team-work-cache.ts';
import { startPglite } from '../helpers/postgres.ts';
import { openTempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

test("on PGlite: replication is idempotent, search finds, and another machine's work is pulled", async () => {
  const pglite = await startPglite();
  const repository = await openTeamRepository({
    url: 'postgres://pglite/local',
    poolConfig: pglite.poolConfig,
    migrate: true,
  });
  const a = openTempStore();
  const b = openTempStore();
  try {
    const clone = makeClone('app');
    const sessionId = randomUUID();
    const at = new Date(Date.now() - 600_000).toISOString();
    a.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, at);
    const draft = draftIn(clone, sessionId, at);
    a.checkpoints.save(draft);
    const writer = { machine: 'A', osUser: 'ada' };
    assert.equal(
      (await replicateToTeam({ store: createCommandStore(a.db), home: a.home, repository, writer }))
        .sent,
      2,
    );
    a.db.exec("UPDATE sync_outbox SET status = 'pending' WHERE tracker = 'team'");
    await replicateToTeam({ store: createCommandStore(a.db), home: a.home, repository, writer });
    assert.equal(await repository.count('checkpoint'), 1);
    const hits = await repository.search('backslash paths', {
      projectIds: ['github.com/acme/app'],
      limit: 5,
    });
    assert.equal(hits[0]?.checkpointId, draft.id);
    // The headline marks the matched words as the local search's snippet does.
    assert.match(hits[0]?.snippet ?? '', /\[backslash\]/);
    // tsquery syntax typed by a user is words, never an error (websearch_to_tsquery).
    const scope = { projectIds: ['github.com/acme/app'], limit: 5 };
    assert.deepEqual(await repository.search('"unclosed & | ! :*', scope), []);
    b.sessions.touch({ agent: 'claude', sessionId: randomUUID(), cwd: makeClone('b') }, at);
    assert.equal(
      await pullTeamWork({
        store: createCommandStore(b.db),
        repository,
        writer: { machine: 'B', osUser: 'ada' },
        now: new Date(),
        resumeWindowDays: 7,
      }),
      1,
    );
    assert.equal(new TeamWorkCache(b.db).getUntaken('github.com/acme/app')?.machine, 'A');
  } finally {
    a.dispose();
    b.dispose();
    await repository.close();
    await pglite.close();
  }
});
