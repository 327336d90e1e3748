/**
 * `shim forget <session>` reaches the team store: after the session went to the server (and a
 * second machine pulled it), forget run through the real binary leaves no row of it on the
 * server and nothing of it under SHIM_HOME — its id and a word only it held are in no file, no
 * row, no free page of shim.db, not in its write-ahead log, not among the search index's terms,
 * not in the growth profile — keeps the other session's, and names the session that was restored
 * from it. One checkpoint forgotten through the MCP tool goes from the server too. A real
 * PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { recordGrowthSteps } from '../../src/store/estimates/growth-profile.ts';
import { identifyProject } from '../../src/capture/project-remote.ts';
import type { TeamRowKind } from '../../src/store/ports/team-repository.ts';
import { testAgents } from '../helpers/agents.ts';
import { runShim } from '../helpers/cli.ts';
import { connectInMemory } from '../helpers/mcp-client.ts';
import { placesUnder } from '../helpers/shim-home-texts.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const KINDS: TeamRowKind[] = ['session', 'checkpoint', 'compaction_summary', 'file_patch'];

test('forget <session> leaves no row of it on the team store or in the outbox', async () => {
  const url = server.url(await server.createDatabase());
  const repository = await openTeamRepository({ url, migrate: true });
  const a = openTempStore();
  try {
    const clone = makeClone('app');
    const gone = randomUUID();
    const kept = randomUUID();
    const word = `zebrafinch${randomUUID().slice(0, 6)}`;
    for (const [sessionId, request] of [
      [gone, `Rename the ${word} importer`],
      [kept, 'Keep the exporter as it is'],
    ] as const) {
      a.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, minutesAgo(30));
      for (const m of [30, 20]) {
        const draft = draftIn(clone, sessionId, minutesAgo(m));
        draft.conversationState = { ...draft.conversationState, userRequests: [request] };
        a.checkpoints.save(draft);
      }
    }
    // A later session restored from the one to forget.
    const restored = randomUUID();
    a.sessions.touch({ agent: 'claude', sessionId: restored, cwd: clone }, minutesAgo(10));
    a.db
      .prepare('UPDATE sessions SET resumed_from_session = ? WHERE session_id = ?')
      .run(gone, restored);
    const writer = { machine: 'laptop-a', osUser: 'ada' };
    await replicateToTeam({
      store: createCommandStore(a.db),
      home: a.home,
      repository,
      writer,
    });
    for (const sessionId of [gone, kept])
      recordGrowthSteps(a.home, { sessionId, compactions: 0 }, [900, 1200], Date.now());
    const scope = { projectIds: [identifyProject(clone).id], limit: 10 };
    assert.equal((await repository.search(word, scope)).length, 1, 'found before');
    const holding = (needle: string) =>
      placesUnder(a.home)
        .filter((p) => p.text.toLowerCase().includes(needle.toLowerCase()))
        .map((p) => p.where);
    assert.notDeepEqual(holding(word), [], 'its word is under SHIM_HOME before');
    assert.notDeepEqual(holding(gone), [], 'its id is under SHIM_HOME before');
    const forgot = runShim(a.home, ['forget', gone, '--json'], {
      cwd: clone,
      env: { SHIM_TEAM_URL: url },
    });
    assert.equal(forgot.status, 0, forgot.stderr);
    const result = JSON.parse(forgot.stdout) as {
      team: Record<string, number> | null;
      restoredInto: string[];
    };
    assert.equal(result.team?.shim_sessions, 1);
    assert.equal(result.team?.shim_checkpoints, 2);
    assert.deepEqual(result.restoredInto, [restored]);

    // Nothing of it on the server; the other session is all there.
    const left = await repository.forgetSession(gone);
    assert.deepEqual(
      Object.values(left).filter((n) => n > 0),
      [],
      'nothing left to delete',
    );
    const counts = await Promise.all(KINDS.map((k) => repository.count(k)));
    assert.equal(counts[0], 2, 'the other sessions stay');
    assert.equal(counts[1], 2, "the other session's checkpoints stay");
    assert.deepEqual(await repository.search(word, scope), [], 'nobody finds its words');
    const outbox = a.db
      .prepare('SELECT COUNT(*) AS n FROM sync_outbox WHERE session_id = ?')
      .get(gone) as { n: number };
    assert.equal(outbox.n, 0, 'no outbox entry names it');
    // Nothing of it under SHIM_HOME: files, rows, the file's bytes, its log, the index's terms.
    assert.deepEqual(holding(word), [], 'its word is nowhere under SHIM_HOME');
    assert.deepEqual(holding(gone), [], 'its id is nowhere under SHIM_HOME');
    assert.notDeepEqual(holding(kept), [], 'the other session is kept');
  } finally {
    a.dispose();
    await repository.close();
  }
});

test('shim_forget of one checkpoint removes it from the team store too', async () => {
  const url = server.url(await server.createDatabase());
  const repository = await openTeamRepository({ url, migrate: true });
  const a = openTempStore();
  try {
    const clone = makeClone('app');
    const sessionId = randomUUID();
    a.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, minutesAgo(30));
    const word = `quagmire${randomUUID().slice(0, 6)}`;
    const ids = [30, 20].map((m) => {
      const draft = draftIn(clone, sessionId, minutesAgo(m));
      draft.conversationState = {
        ...draft.conversationState,
        userRequests: [m === 30 ? `Misleading ${word} plan` : 'The right plan'],
      };
      return a.checkpoints.save(draft).checkpoint.id;
    });
    await replicateToTeam({
      store: createCommandStore(a.db),
      home: a.home,
      repository,
      writer: { machine: 'laptop-a', osUser: 'ada' },
    });
    const scope = { projectIds: [identifyProject(clone).id], limit: 10 };
    assert.equal((await repository.search(word, scope)).length, 1, 'found before');
    // The user turned the tool on (it removes nothing otherwise: test/mcp.test.ts).
    writeFileSync(join(a.home, 'config.json'), '{"mcp": {"forget": true}}\n');
    const client = await connectInMemory({
      agents: testAgents,
      home: a.home,
      cwd: clone,
      env: { SHIM_HOME: a.home, SHIM_TEAM_URL: url },
      version: '0.0.0-test',
    });
    try {
      const answer = (await client.callTool({
        name: 'shim_forget',
        arguments: { id: ids[0]!.slice(0, 8) },
      })) as { isError?: boolean; structuredContent?: { team: Record<string, number> | null } };
      assert.notEqual(answer.isError, true, JSON.stringify(answer));
      assert.equal(answer.structuredContent?.team?.shim_checkpoints, 1);
    } finally {
      await client.close();
    }
    assert.deepEqual(await repository.search(word, scope), [], 'nobody finds it');
    assert.equal(await repository.count('checkpoint'), 1, 'the other checkpoint stays');
    const left = await repository.findCheckpoint(ids[1]!, scope);
    assert.equal(left.length, 1);
  } finally {
    a.dispose();
    await repository.close();
  }
});
