/**
 * `shim ui --team` in a real Chromium over a real PostgreSQL server holding two machines'
 * rows: every machine's sessions, marked with machine and user, and loop runs that move on the
 * page as a machine replicates a newer version of them (no reload).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import type { Browser } from 'playwright-core';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { writeTeamSetting } from '../../src/store/config/config.ts';
import { LoopRepository } from '../../src/store/loop/loop-repository.ts';
import type { TeamRepository } from '../../src/store/ports/team-repository.ts';
import { launchChromium } from '../helpers/browser.ts';
import { runShim } from '../helpers/cli.ts';
import { startDashboard, type Dashboard } from '../helpers/dashboard.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { findPostgresBin, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from '../team/team-fixture.ts';

const skip = findPostgresBin() === null ? 'no PostgreSQL server binaries' : false;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const A = { machine: 'laptop-a', osUser: 'ada' };
const B = { machine: 'desk-b', osUser: 'bo' };

describe('shim ui --team (real Chromium, real PostgreSQL)', { skip }, () => {
  let server: PostgresServer;
  let url: string;
  let repository: TeamRepository;
  let browser: Browser;
  let dashboard: Dashboard | undefined;
  const stores: TempStore[] = [];

  before(async () => {
    server = await startPostgres();
    url = server.url(await server.createDatabase());
    repository = await openTeamRepository({ url, migrate: true });
    browser = await launchChromium();
  });
  after(async () => {
    await dashboard?.stop();
    await browser?.close();
    await repository?.close();
    for (const store of stores) store.dispose();
    server?.dispose();
  });

  test("both machines' sessions marked with machine and user; a loop run moves live", async () => {
    const a = openTempStore();
    const b = openTempStore();
    stores.push(a, b);
    const cloneA = makeClone('app');
    const cloneB = makeClone('work-copy');
    const sessionA = randomUUID();
    const sessionB = randomUUID();
    a.sessions.touch({ agent: 'claude', sessionId: sessionA, cwd: cloneA }, minutesAgo(30));
    a.checkpoints.save(
      draftIn(cloneA, sessionA, minutesAgo(30), {
        conversationState: {
          ...draftIn(cloneA, sessionA, minutesAgo(30)).conversationState,
          userRequests: ['Port the KOALA-1 importer to streaming reads'],
        },
      }),
    );
    b.sessions.touch({ agent: 'claude', sessionId: sessionB, cwd: cloneB }, minutesAgo(5));
    b.checkpoints.save(
      draftIn(cloneB, sessionB, minutesAgo(5), {
        conversationState: {
          ...draftIn(cloneB, sessionB, minutesAgo(5)).conversationState,
          userRequests: ['Fix the EMU-2 export on the desk'],
        },
      }),
    );
    const loops = new LoopRepository(b.db);
    const runId = randomUUID();
    loops.createRun({
      runId,
      createdAt: minutesAgo(4),
      cwd: cloneB,
      goal: 'Make the NUMBAT-3 suite green',
      status: 'running',
      options: {},
      iteration: 2,
    });
    await replicateToTeam({ store: createCommandStore(a.db), home: a.home, repository, writer: A });
    await replicateToTeam({ store: createCommandStore(b.db), home: b.home, repository, writer: B });

    // The dashboard runs on A, in A's clone, connected through its config.
    writeTeamSetting(a.home, 'url', url);
    dashboard = await startDashboard(
      { PATH: process.env.PATH ?? '', HOME: a.home, SHIM_HOME: a.home, SHIM_MACHINE: A.machine },
      { args: ['--team'], cwd: cloneA },
    );
    const page = await browser.newPage();
    await page.goto(`${dashboard.url}#/team`);
    await page.waitForSelector('#app[data-ready="team"]');
    const sessionRow = (id: string) => page.locator(`tr[data-session="${id}"] td.who`);
    assert.equal(await sessionRow(sessionA).getAttribute('data-machine'), 'laptop-a');
    assert.equal(await sessionRow(sessionB).getAttribute('data-machine'), 'desk-b');
    assert.equal(await sessionRow(sessionB).textContent(), 'bo on desk-b');
    assert.match(
      (await page.locator(`tr[data-session="${sessionB}"]`).textContent()) ?? '',
      /Fix the EMU-2 export on the desk/,
    );
    const run = page.locator(`tr[data-run="${runId}"]`);
    assert.equal(await run.getAttribute('data-status'), 'running');
    assert.equal(await run.locator('[data-col="iteration"]').textContent(), '2');
    assert.equal(await page.locator('header.top nav a[href="#/team"]').count(), 1);

    // B's loop run moves on and B's worker replicates it: the open page shows it, no reload.
    loops.updateRun(runId, { iteration: 3, status: 'completed', lastEvent: 'run.completed' });
    await replicateToTeam({ store: createCommandStore(b.db), home: b.home, repository, writer: B });
    await page.waitForSelector(`tr[data-run="${runId}"][data-status="completed"]`);
    assert.equal(await run.locator('[data-col="iteration"]').textContent(), '3');
    await page.close();
  });

  test('without a team store connected, shim ui --team stops with one line and its fix', () => {
    const home = makeTempDir('shim-ui-noteam-');
    const run = runShim(home, ['ui', '--team', '--port', '0']);
    assert.equal(run.status, 1);
    assert.deepEqual(run.stderr.trim().split('\n'), [
      'shim: shim ui --team needs a team store, and none is connected',
      '      shim team connect postgres://user@host/database (docs/team.md)',
    ]);
  });
});
