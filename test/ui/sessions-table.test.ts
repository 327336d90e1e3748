/**
 * The Sessions page in a real Chromium, as issue 42 found it (items 1 and 2): below 720 px every
 * header must stay over its own column and the page must not scroll sideways; a session whose
 * agent was killed (the hooks recorded its process, now gone) is not "still running" there while
 * the Now board already knows it is gone.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { EMPTY_HOOK_MEMORY } from '../../src/core/policy/hook-policy.ts';
import { saveHookMemory } from '../../src/store/cache/hook-memory.ts';
import { SessionRepository } from '../../src/store/checkpoints/session-repository.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { launchChromium } from '../helpers/browser.ts';
import { startDashboard, type Dashboard } from '../helpers/dashboard.ts';
import { makeTempDir } from '../helpers/fixtures.ts';

const KILLED = 'dead0000-0000-4000-8000-000000000001';
const RUNNING = 'a11fe000-0000-4000-8000-000000000002';

/** A process that has exited: its pid is what a kill -9 leaves in the hooks' memory. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

type Box = { col: string | null; left: number; width: number };

describe('the Sessions page', { timeout: 120_000 }, () => {
  let root: string;
  let browser: Browser;
  let dashboard: Dashboard;
  let agent: ChildProcess;

  before(async () => {
    root = makeTempDir('shim-ui-table-');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: root,
      SHIM_HOME: join(root, 'shim'),
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
      NO_COLOR: '1',
      TZ: 'UTC',
    };
    // A live agent process (its command line names the agent, as Claude Code's does).
    agent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)', 'claude'], {
      stdio: 'ignore',
    });
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    const db = openDatabase(env.SHIM_HOME);
    try {
      const sessions = new SessionRepository(db);
      for (const [id, pid] of [
        [KILLED, await exitedPid()],
        [RUNNING, agent.pid!],
      ] as const) {
        sessions.touch(
          { sessionId: id, cwd: '/work/a-project-with-a-long-name', agent: 'claude' },
          fiveMinutesAgo,
        );
        saveHookMemory(env.SHIM_HOME, id, { ...EMPTY_HOOK_MEMORY, agentPid: pid });
      }
    } finally {
      db.close();
    }
    browser = await launchChromium();
    dashboard = await startDashboard(env);
  });

  after(async () => {
    await browser?.close();
    await dashboard?.stop();
    if (agent && agent.exitCode === null) {
      const exited = new Promise((resolve) => agent.once('exit', resolve));
      agent.kill('SIGKILL');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  });

  async function open(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(`${dashboard.url}#/sessions`);
    await page.waitForSelector('#app[data-ready="sessions"]');
    return page;
  }

  test('a killed session is not "still running"; a live one is', async () => {
    const page = await open(1280);
    const ending = (id: string) =>
      page.locator(`tr[data-session="${id}"] [data-col="ending"]`).textContent();
    assert.equal(await ending(KILLED), 'crashed');
    assert.equal(await ending(RUNNING), 'still running');
    await page.close();
  });

  for (const width of [700, 420]) {
    test(`at ${width} px every header is over its own column, and nothing scrolls sideways`, async () => {
      const page = await open(width);
      const boxes = (selector: string) =>
        page.locator(selector).evaluateAll((els) =>
          els
            .map((e) => {
              const r = (
                e as unknown as { getBoundingClientRect(): { left: number; width: number } }
              ).getBoundingClientRect();
              return {
                col: e.getAttribute('data-col'),
                left: Math.round(r.left),
                width: Math.round(r.width),
              };
            })
            .filter((b) => b.width > 0),
        );
      const headers: Box[] = await boxes('table.sessions thead th');
      const cells: Box[] = await boxes(`tr[data-session="${KILLED}"] td`);
      assert.deepEqual(
        headers.map((h) => [h.col, h.left]),
        cells.map((c) => [c.col, c.left]),
        'each visible header sits over the cells of its own column',
      );
      assert.ok(!headers.some((h) => h.col === 'project'), 'Project is hidden with its cells');
      const overflow = await page.evaluate(() => {
        const doc = (
          globalThis as unknown as {
            document: { documentElement: { scrollWidth: number; clientWidth: number } };
          }
        ).document.documentElement;
        return doc.scrollWidth - doc.clientWidth;
      });
      assert.equal(overflow, 0, 'the page does not scroll sideways');
      await page.close();
    });
  }
});
