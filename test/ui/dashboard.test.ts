/**
 * `shim ui` in a real Chromium: the session list, a real fixture's timeline (its compactions and
 * shim's checkpoints at the responses they belong to, read from the page), a checkpoint opened
 * from its marker, a running loop's events arriving without a reload, the export opened from
 * disk with no network, and the server refusing requests without the token or with `../` paths.
 * Screenshots of each page are saved in the test's temp dir (SHIM_KEEP_SCREENSHOTS keeps them).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createCheckpoint } from '../../src/app/checkpoint/create-checkpoint.ts';
import { LoopRepository } from '../../src/store/loop/loop-repository.ts';
import { ResumeRepository } from '../../src/store/checkpoints/resume-repository.ts';
import { SessionRepository } from '../../src/store/checkpoints/session-repository.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { readSessionHead } from '../../src/agents/claude/sniff.ts';
import { launchChromium } from '../helpers/browser.ts';
import { BIN, runShim } from '../helpers/cli.ts';
import { startDashboard, type Dashboard } from '../helpers/dashboard.ts';
import { fixturePath, makeTempDir } from '../helpers/fixtures.ts';
import {
  createLoopWorld,
  done,
  respond,
  FAKE_CLAUDE,
  type LoopWorld,
} from '../loop/loop-harness.ts';
import { logOf } from '../helpers/agents.ts';

/** Two auto compactions: after the 9th and the 66th of its 147 responses (`shim replay`). */
const TWO_COMPACTIONS = 'entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl';
const ONE_COMPACTION = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';
/** Checkpoints taken at these transcript lines reflect responses 19 and 99 (0-based 18, 98). */
const CHECKPOINT_LINES = [100, 400];

/** What the tests read of the page's window (the test runs in Node, without DOM types). */
type InPage = { stayed?: boolean; document: { querySelectorAll(s: string): { length: number } } };

function raw(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('shim ui', { timeout: 180_000 }, () => {
  let root: string;
  let env: Record<string, string>;
  let sessionId: string;
  /** The other session: restored from the first one's second checkpoint. */
  let laterId: string;
  let browser: Browser;
  let dashboard: Dashboard;
  let shots: string;
  const checkpointIds: string[] = [];
  /** The later session's checkpoint taken as its compaction began (trigger pre_compact). */
  let compactionCheckpointId: string;
  const consoleProblems: string[] = [];

  async function open(hash = ''): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleProblems.push(m.text());
    });
    page.on('pageerror', (e) => consoleProblems.push(String(e)));
    await page.goto(`${dashboard.url}${hash}`);
    return page;
  }

  before(async () => {
    root = makeTempDir('shim-ui-');
    shots = join(root, 'screenshots');
    mkdirSync(shots);
    const projects = join(root, 'claude', 'projects', '-work-demo');
    mkdirSync(projects, { recursive: true });
    env = {
      PATH: process.env.PATH ?? '',
      HOME: root,
      SHIM_HOME: join(root, 'shim'),
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
      NO_COLOR: '1',
      TZ: 'UTC',
    };
    for (const name of [TWO_COMPACTIONS, ONE_COMPACTION]) {
      const source = fixturePath(name);
      const id = readSessionHead(source).sessionId!;
      copyFileSync(source, join(projects, `${id}.jsonl`));
      if (name === TWO_COMPACTIONS) sessionId = id;
      else laterId = id;
    }
    const transcript = join(projects, `${sessionId}.jsonl`);
    for (const [i, line] of CHECKPOINT_LINES.entries()) {
      const made = await createCheckpoint({
        log: logOf(transcript),
        untilLine: line,
        cwd: root,
        env,
        home: env.SHIM_HOME!,
        now: Date.parse('2026-11-20T10:00:00Z') + i * 60_000,
        trigger: 'tool_call_interval',
        snapshot: false,
      });
      checkpointIds.push(made.checkpoint.id);
    }
    // The later session's compaction checkpoint; the session then ended cleanly, so a new
    // session would be told its work was "left open at exit" — not what the model was given.
    compactionCheckpointId = (
      await createCheckpoint({
        log: logOf(join(projects, `${laterId}.jsonl`)),
        untilLine: 200,
        cwd: root,
        env,
        home: env.SHIM_HOME!,
        now: Date.parse('2026-11-20T12:00:00Z'),
        trigger: 'pre_compact',
        snapshot: false,
      })
    ).checkpoint.id;
    const db = openDatabase(env.SHIM_HOME!);
    try {
      new SessionRepository(db).end(laterId, 'claude', 'other', '2026-11-20T12:30:00.000Z');
      new ResumeRepository(db).record({
        checkpointId: checkpointIds[1]!,
        sessionId: laterId,
        restoredAt: '2026-11-20T11:00:00.000Z',
        interruptionReason: 'crash',
        timeSinceCheckpoint: 3_540_000,
        resumeConfidence: 0.9,
      });
    } finally {
      db.close();
    }
    browser = await launchChromium();
    dashboard = await startDashboard(env);
  });

  after(async () => {
    await browser?.close();
    await dashboard?.stop();
    if (!process.env.SHIM_KEEP_SCREENSHOTS) rmSync(root, { recursive: true, force: true });
    else process.stderr.write(`screenshots: ${shots}\n`);
  });

  test('the session list shows both sessions with their compactions and checkpoints', async () => {
    const page = await open('#/sessions');
    await page.waitForSelector('#app[data-ready="sessions"]');
    const rows = page.locator('table.sessions tbody tr');
    assert.equal(await rows.count(), 2);
    const row = page.locator(`tr[data-session="${sessionId}"]`);
    assert.equal(await row.locator('[data-col="compactions"]').textContent(), '2');
    assert.equal(await row.locator('[data-col="checkpoints"]').textContent(), '2');
    assert.match((await row.textContent()) ?? '', /claude-opus|claude-sonnet/);
    await page.screenshot({ path: join(shots, 'sessions.png'), fullPage: true });
    await page.close();
  });

  test("a real session's timeline: its compactions and checkpoints at the right responses", async () => {
    const page = await open(`#/session/${sessionId}`);
    await page.waitForSelector('#app[data-ready="timeline"]');
    const after = await page
      .locator('.marker-compaction')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-after'))));
    assert.deepEqual(after, [8, 65]);
    const at = await page
      .locator('.marker-checkpoint')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-at'))));
    assert.deepEqual(at, [18, 98]);
    // Each marker sits over its response: left of the next one, in order, inside the plot.
    const lefts = await page
      .locator('.marker-compaction, .marker-checkpoint')
      .evaluateAll((els) =>
        els.map(
          (e) =>
            (e as unknown as { getBoundingClientRect(): { left: number } }).getBoundingClientRect()
              .left,
        ),
      );
    assert.ok(lefts.every((x) => x > 0));
    assert.match(
      (await page.locator('p.meta').textContent()) ?? '',
      /147 responses · 2 compactions · 2 checkpoints/,
    );
    await page
      .locator('.u-over')
      .first()
      .hover({ position: { x: 200, y: 100 } });
    assert.match(
      (await page.locator('.hover-info').textContent()) ?? '',
      /^response \d+ \(line \d+\)/,
    );
    assert.match(
      (await page.locator('p.restore').textContent()) ?? '',
      /restored into 1 later session/,
    );
    assert.equal(await page.locator('.marker-restore').count(), 0);
    await page.screenshot({ path: join(shots, 'timeline.png'), fullPage: true });
    // The README's picture of the timeline: SHIM_UPDATE_SCREENSHOTS=1 npm test -- test/ui
    if (process.env.SHIM_UPDATE_SCREENSHOTS === '1')
      await page.screenshot({
        path: join(import.meta.dirname, '..', '..', 'docs', 'images', 'dashboard-timeline.png'),
        clip: { x: 0, y: 0, width: 1280, height: 780 },
      });
    await page.close();
  });

  test('a restored session shows where it came from, at its start', async () => {
    const page = await open(`#/session/${laterId}`);
    await page.waitForSelector('#app[data-ready="timeline"]');
    assert.equal(await page.locator('.marker-restore').count(), 1);
    assert.equal(
      await page.locator('.marker-restore').getAttribute('href'),
      `#/checkpoint/${checkpointIds[1]}`,
    );
    assert.match(
      (await page.locator('p.restore').first().textContent()) ?? '',
      /^Restored from checkpoint .* \(crash, 2026-11-20 11:00\)$/,
    );
    const row = await open('#/sessions');
    await row.waitForSelector('#app[data-ready="sessions"]');
    assert.equal(
      await row.locator(`tr[data-session="${laterId}"] td`).nth(9).textContent(),
      '1',
      'one restore into it',
    );
    await row.close();
    await page.close();
  });

  test('a checkpoint opens from its marker: tasks, handoff and the resume prompt', async () => {
    const page = await open(`#/session/${sessionId}`);
    await page.waitForSelector('#app[data-ready="timeline"]');
    await page.locator('.marker-checkpoint').first().click();
    await page.waitForSelector('#app[data-ready="checkpoint"]');
    assert.equal(await page.locator('h1').getAttribute('data-checkpoint'), checkpointIds[0]);
    assert.equal(await page.locator('h1').textContent(), 'Checkpoint #1');
    assert.match(
      (await page.locator('pre.resume-prompt').textContent()) ?? '',
      /^# .*\(shim checkpoint #\d+\)/m,
    );
    assert.match((await page.locator('pre.handoff').textContent()) ?? '', /\S/);
    await page.screenshot({ path: join(shots, 'checkpoint.png'), fullPage: true });
    await page.close();
  });

  test('a checkpoint shows what led to it: the one before it and what happened since', async () => {
    const page = await open(`#/checkpoint/${checkpointIds[1]}`);
    await page.waitForSelector('#app[data-ready="checkpoint"]');
    const steps = page.locator('section.chain ol.chain-steps > li');
    assert.equal(await steps.count(), 2);
    assert.equal(await steps.nth(0).getAttribute('data-checkpoint'), checkpointIds[1]);
    assert.equal(await steps.nth(1).getAttribute('data-checkpoint'), checkpointIds[0]);
    assert.match(
      (await steps.nth(0).textContent()) ?? '',
      /stored as its change since .*since the one below: .*tool calls/,
    );
    assert.match((await steps.nth(1).textContent()) ?? '', /stored whole .*it holds: /);
    await steps.nth(1).locator('a').click();
    await page.waitForSelector(`h1[data-checkpoint="${checkpointIds[0]}"]`);
    await page.screenshot({ path: join(shots, 'checkpoint-chain.png'), fullPage: true });
    await page.close();
  });

  test("a compaction's checkpoint shows the restore the model was given after it (issue 42 item 3)", async () => {
    const page = await open(`#/checkpoint/${compactionCheckpointId}`);
    await page.waitForSelector('#app[data-ready="checkpoint"]');
    const prompt = (await page.locator('pre.resume-prompt').textContent()) ?? '';
    assert.match(prompt, /^# Continuing after compaction \(shim checkpoint #\d+\)/);
    assert.doesNotMatch(prompt, /left open at exit|ended the previous session/);
    assert.match(prompt, /## Where you were/);
    assert.match(
      (await page.locator('pre.handoff').textContent()) ?? '',
      /\ninterruption_reason: compaction\n/,
    );
    await page.close();
  });

  test('without the token, with another host name, or with ../ in the path: refused', async () => {
    assert.equal((await raw(dashboard.port, '/')).status, 403);
    assert.equal((await raw(dashboard.port, '/api/sessions')).status, 403);
    assert.equal((await raw(dashboard.port, '/api/sessions?token=wrong')).status, 403);
    const t = `token=${dashboard.token}`;
    assert.equal(
      (await raw(dashboard.port, `/api/sessions?${t}`, { Host: `evil.example:${dashboard.port}` }))
        .status,
      403,
    );
    assert.equal((await raw(dashboard.port, `/api/sessions?${t}`)).status, 200);
    for (const path of [
      `/../../../etc/passwd?${t}`,
      `/api/sessions/..%2F..%2F..%2Fetc%2Fpasswd/timeline?${t}`,
      `/api/sessions/../../etc/passwd/timeline?${t}`,
      `/api/checkpoints/..%2F..%2Fstore.db?${t}`,
      `/api/loops/..%2Fx/events?${t}`,
    ]) {
      const answer = await raw(dashboard.port, path);
      assert.ok(answer.status === 400 || answer.status === 404, `${path}: ${answer.status}`);
      assert.doesNotMatch(answer.body, /root:|SQLite/);
    }
  });

  test("a running loop's events appear without a reload", async () => {
    const world: LoopWorld = createLoopWorld();
    // The agent goes on once the page is open and its readings counted: the page is there for
    // the next ones however long it took to load (a sleep in the script raced it under load).
    const pageSeen = join(world.root, 'page-seen');
    try {
      world.script([
        {
          actions: [
            respond(20_000, { text: 'Starting.' }),
            { waitForFile: pageSeen },
            respond(30_000, { text: 'Halfway.' }),
            done(),
          ],
        },
      ]);
      const loop = spawn(
        process.execPath,
        [BIN, 'loop', '--goal', 'Write the report.', '--claude-bin', FAKE_CLAUDE],
        {
          cwd: world.project,
          env: world.env,
          stdio: 'ignore',
        },
      );
      const loopDashboard = await startDashboard(world.env);
      try {
        let runId: string | null = null;
        for (let i = 0; i < 400 && !runId; i++) {
          const db = openDatabase(world.home);
          try {
            runId = new LoopRepository(db).latestRun({})?.runId ?? null;
          } finally {
            db.close();
          }
          if (!runId) await new Promise((r) => setTimeout(r, 25));
        }
        assert.ok(runId, 'the loop run was recorded');
        const page = await browser.newPage();
        page.on('pageerror', (e) => consoleProblems.push(String(e)));
        await page.goto(`${loopDashboard.url}#/loop/${runId}`);
        await page.waitForSelector('#app[data-ready="loop"]');
        await page.evaluate(() => ((globalThis as unknown as InPage).stayed = true));
        const first = await page.locator('ol.events li').count();
        const readings = Number(await page.getAttribute('.loop-context', 'data-readings'));
        writeFileSync(pageSeen, '');
        await page.waitForFunction(
          (n) =>
            (globalThis as unknown as InPage).document.querySelectorAll('ol.events li').length > n,
          first,
          { timeout: 20_000 },
        );
        await page.waitForSelector('.meta .status.completed', { timeout: 30_000 });
        assert.ok(
          Number(await page.getAttribute('.loop-context', 'data-readings')) > readings,
          'context readings joined the chart live',
        );
        assert.equal(
          await page.locator('tr[data-iteration="1"] td:nth-child(3)').textContent(),
          'finished',
        );
        assert.equal(
          await page.evaluate(() => (globalThis as unknown as InPage).stayed),
          true,
          'no reload',
        );
        // The status and the event list refresh apart: the completion event follows the status.
        await page
          .waitForFunction(
            () => {
              type Names = {
                querySelectorAll(s: string): ArrayLike<{ textContent: string | null }>;
              };
              const doc = (globalThis as unknown as { document: Names }).document;
              return Array.from(doc.querySelectorAll('ol.events .name')).some((n) =>
                /complet/.test(n.textContent ?? ''),
              );
            },
            undefined,
            { timeout: 30_000 },
          )
          .catch(async (error: Error) => {
            const names = await page.locator('ol.events .name').allTextContents();
            throw new Error(`${error.message}; events: ${names.join(' ')}`);
          });
        await page.screenshot({ path: join(shots, 'loop.png'), fullPage: true });
        await page.close();
      } finally {
        await loopDashboard.stop();
        if (loop.exitCode === null) loop.kill('SIGTERM');
      }
    } finally {
      world.cleanup();
    }
  });

  test('the export opens from disk, offline, and shows the same timeline', async () => {
    const file = join(root, 'session.html');
    const exported = runShim(env.SHIM_HOME!, ['ui', '--export', file, '--session', sessionId], {
      env: { CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR! },
    });
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stdout, /^wrote .*session\.html \(\d+ KB/);
    const html = readFileSync(file, 'utf8');
    assert.doesNotMatch(html, /<script src=|<link rel="stylesheet"|https?:\/\/(?!www\.w3\.org)/);
    const again = runShim(env.SHIM_HOME!, ['ui', '--export', file, '--session', sessionId], {
      env: { CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR! },
    });
    assert.equal(again.status, 1);
    assert.match(again.stderr, /exists.*--force/s);

    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleProblems.push(`export: ${m.text()}`);
    });
    await page.goto(`file://${file}`);
    await page.waitForSelector('#app[data-ready="timeline"]');
    assert.equal(await page.locator('.marker-compaction').count(), 2);
    assert.equal(await page.locator('.marker-checkpoint').count(), 2);
    await page.locator('.marker-checkpoint').first().click();
    await page.waitForSelector('#app[data-ready="checkpoint"]');
    assert.deepEqual(
      requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:')),
      [],
      'nothing fetched',
    );
    await context.close();
  });

  test('no page broke its Content-Security-Policy or logged an error', () => {
    assert.deepEqual(consoleProblems, []);
  });
});
