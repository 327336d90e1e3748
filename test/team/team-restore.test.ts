/**
 * Machine B restores machine A's newer unfinished work at startup from the local copy the worker
 * pulled (no connection in the hook), names A and how long ago, and takes it once; B's own newer
 * work wins. Against a real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { restoreAtStartup } from '../../src/app/restore/startup-restore.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { pullTeamWork } from '../../src/app/team/pull-team-work.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { renderRestore } from '../../src/core/resume/resume-prompt.ts';
import { CLAUDE_TARGET } from '../../src/core/resume/restore-target.test-helper.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';
import { testAgents } from '../helpers/agents.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

test("B's new session gets A's newer unfinished work, naming A; once; B's newer work wins", async () => {
  const repository = await openTeamRepository({
    url: server.url(await server.createDatabase()),
    migrate: true,
  });
  const a = openTempStore();
  const b = openTempStore();
  try {
    const cloneA = makeClone('app');
    const cloneB = makeClone('work-copy');
    const sessionA = randomUUID();
    a.sessions.touch({ agent: 'claude', sessionId: sessionA, cwd: cloneA }, minutesAgo(20));
    const draft = draftIn(cloneA, sessionA, minutesAgo(20));
    draft.conversationState = {
      ...draft.conversationState,
      userRequests: ['Port the importer to streaming reads; keep the CSV header check'],
    };
    a.checkpoints.save(draft);
    await replicateToTeam({
      store: createCommandStore(a.db),
      home: a.home,
      repository,
      writer: { machine: 'laptop-a', osUser: 'ada' },
    });
    const writerB = { machine: 'desk-b', osUser: 'ada' };
    b.sessions.touch({ agent: 'claude', sessionId: randomUUID(), cwd: cloneB }, minutesAgo(120));
    assert.equal(
      await pullTeamWork({
        store: createCommandStore(b.db),
        repository,
        writer: writerB,
        now: new Date(),
        resumeWindowDays: 7,
      }),
      1,
    );

    const storeB = createCommandStore(b.db);
    const request = {
      agents: testAgents,
      cwd: cloneB,
      home: b.home,
      env: {},
      now: Date.now(),
      teamResume: true,
    };
    const restore = await restoreAtStartup(storeB, { ...request, sessionId: randomUUID() });
    assert.equal(restore?.kind, 'team');
    assert.equal(restore?.checkpoint.id, draft.id);
    assert.deepEqual(restore?.detection.from, { osUser: 'ada', machine: 'laptop-a' });
    const prompt = renderRestore({
      checkpoint: restore!.checkpoint,
      detection: restore!.detection,
      target: CLAUDE_TARGET,
    });
    assert.match(prompt, /This work comes from ada on laptop-a, 20 minutes ago/);
    assert.match(prompt, /Port the importer to streaming reads/);
    assert.match(prompt, /Fix backslash paths in transcript lookup/, 'the open tasks travel');
    assert.match(prompt, /src\/cli\/commands\/status\.ts/, 'the files travel');
    // Where A was travels too: the call in flight, the last commands, the newest failure.
    assert.ok(prompt.includes('```sh\nnpm test -- src/claude\n```'), 'the call in flight');
    assert.match(prompt, /- `git status --short` → exit 0/);
    assert.match(prompt, /\*\*Newest failure\*\* \(Bash, exit 1, /);
    assert.ok(prompt.includes('AssertionError: expected C--work-repo'), 'its output');
    // Taken once.
    const again = await restoreAtStartup(storeB, { ...request, sessionId: randomUUID() });
    assert.notEqual(again?.kind, 'team');
    // Without team.resume (or a team store) nothing comes from the team.
    const c = openTempStore();
    try {
      c.sessions.touch({ agent: 'claude', sessionId: randomUUID(), cwd: cloneB }, minutesAgo(120));
      await pullTeamWork({
        store: createCommandStore(c.db),
        repository,
        writer: { machine: 'c', osUser: 'cy' },
        now: new Date(),
        resumeWindowDays: 7,
      });
      const off = await restoreAtStartup(createCommandStore(c.db), {
        ...request,
        home: c.home,
        teamResume: false,
        sessionId: randomUUID(),
      });
      assert.notEqual(off?.kind, 'team');
      // C's own newer checkpoint in its clone wins over A's.
      const mine = randomUUID();
      c.checkpoints.save(draftIn(cloneB, mine, minutesAgo(5)));
      const own = await restoreAtStartup(createCommandStore(c.db), {
        ...request,
        home: c.home,
        sessionId: randomUUID(),
      });
      assert.notEqual(own?.kind, 'team');
    } finally {
      c.dispose();
    }
  } finally {
    a.dispose();
    b.dispose();
    await repository.close();
  }
});
