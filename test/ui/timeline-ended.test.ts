/**
 * A session's timeline in a real Chromium, as issue 42 item 6 found it: no forecast shading or
 * forecast line for a session that has ended (it will not compact again), and no raw
 * "Response: –" legend values when nothing is hovered (the hover line says each response).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { readSessionHead } from '../../src/agents/claude/sniff.ts';
import { SessionRepository } from '../../src/store/checkpoints/session-repository.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { launchChromium } from '../helpers/browser.ts';
import { startDashboard, type Dashboard } from '../helpers/dashboard.ts';
import { FIXTURES_MISSING, fixturePath, makeTempDir } from '../helpers/fixtures.ts';

/** A real session with two auto compactions, still growing at its last response. */
const SESSION_LOG = 'entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl';

describe('a session timeline', { timeout: 120_000, skip: FIXTURES_MISSING }, () => {
  let root: string;
  let sessionId: string;
  let browser: Browser;
  let dashboard: Dashboard;
  let home: string;

  before(async () => {
    root = makeTempDir('shim-ui-ended-');
    home = join(root, 'shim');
    const projects = join(root, 'claude', 'projects', '-work-demo');
    mkdirSync(projects, { recursive: true });
    const source = fixturePath(SESSION_LOG);
    sessionId = readSessionHead(source).sessionId!;
    copyFileSync(source, join(projects, `${sessionId}.jsonl`));
    browser = await launchChromium();
    dashboard = await startDashboard({
      PATH: process.env.PATH ?? '',
      HOME: root,
      SHIM_HOME: home,
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
      NO_COLOR: '1',
      TZ: 'UTC',
    });
  });

  after(async () => {
    await browser?.close();
    await dashboard?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  async function open(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${dashboard.url}#/session/${sessionId}`);
    await page.waitForSelector('#app[data-ready="timeline"]');
    return page;
  }

  test('its legends name the series without raw "–" values', async () => {
    const page = await open();
    const legends = await page.locator('.u-legend').allTextContents();
    assert.ok(legends.length > 0, 'the charts have legends');
    for (const text of legends) assert.doesNotMatch(text, /–/);
    await page.close();
  });

  test('running: a forecast; ended: none', async () => {
    const running = await open();
    assert.equal(await running.locator('p.forecast').count(), 1, 'the forecast while it runs');
    await running.close();
    const db = openDatabase(home);
    try {
      const sessions = new SessionRepository(db);
      sessions.touch({ sessionId, agent: 'claude' }, '2026-11-20T12:00:00.000Z');
      sessions.end(sessionId, 'claude', 'prompt_input_exit', '2026-11-20T12:30:00.000Z');
    } finally {
      db.close();
    }
    const ended = await open();
    assert.equal(await ended.locator('p.forecast').count(), 0, 'no forecast once it ended');
    await ended.close();
  });
});
