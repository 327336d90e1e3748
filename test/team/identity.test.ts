/**
 * A project is one project on every machine, and two projects stay two: a remote spelled
 * `git@github.com:Acme/Widget.git` on one machine and `https://github.com/acme/widget` on another
 * is one project (B pulls A's work); two machines whose work sits at the same path without a
 * remote (two `/workspace` containers) are two (B pulls nothing of A's). A real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { pullTeamWork } from '../../src/app/team/pull-team-work.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import type { TeamRepository } from '../../src/store/ports/team-repository.ts';
import { TeamWorkCache } from '../../src/store/team/team-work-cache.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

/** A's session in `dir`, replicated as `machine`; B's own older session in `dirB`; B pulls. */
async function pullAcross(
  repository: TeamRepository,
  a: { store: TempStore; dir: string; machine: string },
  b: { store: TempStore; dir: string; machine: string },
) {
  const sessionA = randomUUID();
  a.store.sessions.touch({ agent: 'claude', sessionId: sessionA, cwd: a.dir }, minutesAgo(5));
  a.store.checkpoints.save(draftIn(a.dir, sessionA, minutesAgo(5)));
  await replicateToTeam({
    store: createCommandStore(a.store.db),
    home: a.store.home,
    repository,
    writer: { machine: a.machine, osUser: 'ada' },
  });
  const sessionB = randomUUID();
  b.store.sessions.touch({ agent: 'claude', sessionId: sessionB, cwd: b.dir }, minutesAgo(60));
  return pullTeamWork({
    store: createCommandStore(b.store.db),
    repository,
    writer: { machine: b.machine, osUser: 'ada' },
    now: new Date(),
    resumeWindowDays: 7,
  });
}

describe('project identity across machines', () => {
  test('git@github.com:Acme/Widget.git and https://github.com/acme/widget are one project', async () => {
    const url = server.url(await server.createDatabase());
    const repository = await openTeamRepository({ url, migrate: true });
    const a = openTempStore();
    const b = openTempStore();
    try {
      const pulled = await pullAcross(
        repository,
        { store: a, dir: makeClone('widget', 'git@github.com:Acme/Widget.git'), machine: 'laptop' },
        { store: b, dir: makeClone('w', 'https://github.com/acme/widget'), machine: 'desk' },
      );
      assert.equal(pulled, 1);
      const work = new TeamWorkCache(b.db).getUntaken('github.com/acme/widget');
      assert.equal(work?.machine, 'laptop');
    } finally {
      a.dispose();
      b.dispose();
      await repository.close();
    }
  });

  test('the same path without a remote on two machines is two projects', async () => {
    const url = server.url(await server.createDatabase());
    const repository = await openTeamRepository({ url, migrate: true });
    const a = openTempStore();
    const b = openTempStore();
    // One directory stands for the `/workspace` both containers have.
    const workspace = join(makeTempDir('shim-identity-'), 'workspace');
    mkdirSync(workspace, { recursive: true });
    try {
      const pulled = await pullAcross(
        repository,
        { store: a, dir: workspace, machine: 'container-1' },
        { store: b, dir: workspace, machine: 'container-2' },
      );
      assert.equal(pulled, 0);
      assert.deepEqual(new TeamWorkCache(b.db).list(), []);
      const ids = await server.sql(
        url.split('/').pop()!.split('?')[0]!,
        'SELECT DISTINCT project_id FROM shim_checkpoints',
      );
      assert.deepEqual(ids.rows, [{ project_id: `path:container-1:${workspace}` }]);
    } finally {
      a.dispose();
      b.dispose();
      await repository.close();
    }
  });

  test("a server's rows of an older shim are renamed to the identity that holds", async () => {
    const url = server.url(await server.createDatabase());
    const database = url.split('/').pop()!.split('?')[0]!;
    // The schema as version 1 left it, with rows named the old way.
    const { POSTGRES_MIGRATIONS } = await import('../../src/store/postgres/migrations.ts');
    await server.sql(
      database,
      `CREATE TABLE shim_schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
       ${POSTGRES_MIGRATIONS[0]!.sql}
       INSERT INTO shim_schema_version (version) VALUES (1);
       INSERT INTO shim_checkpoints (id, session_id, checkpoint_number, at, triggered_by, open_tasks, body, project_id, machine, os_user)
       VALUES ('c1', 's1', 1, now(), 'x', 0, '{}', 'github.com/Acme/Widget//packages/Api', 'm', 'u'),
              ('c2', 's2', 1, now(), 'x', 0, '{}', 'path:/workspace', 'box-1', 'u'),
              ('c3', 's3', 1, now(), 'x', 0, '{}', 'git.example.com/Team/App', 'm', 'u');`,
    );
    (await openTeamRepository({ url, migrate: true })).close();
    const rows = await server.sql(
      database,
      'SELECT id, project_id FROM shim_checkpoints ORDER BY id',
    );
    assert.deepEqual(
      rows.rows.map((r: { project_id: string }) => r.project_id),
      ['github.com/acme/widget//packages/Api', 'path:box-1:/workspace', 'git.example.com/Team/App'],
    );
  });
});
