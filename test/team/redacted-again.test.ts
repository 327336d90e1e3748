/**
 * A session that learns a secret after its rows went to the team store (issue 38): the rows
 * redacted again locally (app/checkpoint/redact-stored-session.ts) go again, and the team's
 * copies take the redacted bodies — the value is nowhere in the team store, one row per id.
 * A real PostgreSQL server (test/helpers/postgres.ts).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { redactStoredSession } from '../../src/app/checkpoint/redact-stored-session.ts';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { redactTextSync, SecretMemory } from '../../src/redact/redact.ts';
import { B62, madeUp } from '../../src/redact/made-up.test-helper.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

describe('the team store after a session learned a secret', () => {
  test('its checkpoints and summaries there are replaced by the redacted ones', async () => {
    const database = await server.createDatabase();
    const url = server.url(database);
    const repository = await openTeamRepository({ url, migrate: true });
    const store = openTempStore();
    try {
      const value = madeUp(3802).gen(B62, 30);
      const clone = makeClone('app');
      const sessionId = randomUUID();
      const at = new Date(Date.now() - 60_000).toISOString();
      store.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, at);
      // Pasted bare: nothing says it is a secret yet.
      const draft = draftIn(clone, sessionId, at);
      store.checkpoints.save({
        ...draft,
        conversationState: { ...draft.conversationState, summary: `deploy with ${value} today` },
      });
      createCommandStore(store.db).compactionSummaries.save({
        sessionId,
        recordedAt: at,
        trigger: 'auto',
        summary: `The user deployed with ${value}.`,
        checkpointId: draft.id,
      });
      const writer = { machine: 'laptop', osUser: 'ada' };
      const send = () =>
        replicateToTeam({
          store: createCommandStore(store.db),
          home: store.home,
          repository,
          writer,
        });
      await send();
      const raw = async () =>
        (
          await server.sql(
            database,
            `SELECT body::text AS body FROM shim_checkpoints
             UNION ALL SELECT body::text FROM shim_compaction_summaries`,
          )
        ).rows.filter((r) => String(r.body).includes(value)).length;
      assert.equal(await raw(), 2, 'the bare value went to the team store as it was');

      // Later the session shows what it is.
      const memory = new SecretMemory();
      redactTextSync(`export VAULT_TOKEN=${value}`, memory);
      assert.equal(redactStoredSession(createCommandStore(store.db), sessionId, memory), 2);
      const again = await send();
      assert.equal(again.error, null);
      assert.equal(await raw(), 0);
      assert.equal(await repository.count('checkpoint'), 1);
      const [row] = (await server.sql(database, 'SELECT body::text AS body FROM shim_checkpoints'))
        .rows;
      assert.match(String(row!.body), /deploy with \[REDACTED:[\w-]+\] today/);
    } finally {
      store.dispose();
      await repository.close();
    }
  });
});
