/**
 * `shim ui` in a real Chromium, the pages people keep open: Now (every running session as a
 * gauge, moving as the hooks record new responses, without a reload), a chain of three sessions
 * (a compaction, a crash resume, a handoff) drawn as one lineage, keyboard navigation, an
 * accessibility check (axe-core) and screenshots of each page in the light and the dark theme
 * (SHIM_UPDATE_SCREENSHOTS=1 writes them to docs/images/ for docs/dashboard.md).
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { createCheckpoint } from '../../src/app/checkpoint/create-checkpoint.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { ResumeRepository } from '../../src/store/checkpoints/resume-repository.ts';
import { launchChromium } from '../helpers/browser.ts';
import { runShim } from '../helpers/cli.ts';
import { startDashboard, type Dashboard } from '../helpers/dashboard.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import {
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
  type RawEntry,
} from '../helpers/transcript-builders.ts';
import { logOf } from '../helpers/agents.ts';

const DOCS_IMAGES = join(import.meta.dirname, '..', '..', 'docs', 'images');
const NOW = Date.parse('2026-11-25T12:00:00Z');

/** What the tests read of the page's window (the test runs in Node, without DOM types). */
type InPage = {
  stayed?: boolean;
  document: {
    activeElement: { getAttribute(name: string): string | null; tagName: string } | null;
    querySelector(s: string): { getAttribute(name: string): string | null } | null;
  };
  axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
};
type AxeViolation = { id: string; impact: string | null; help: string; nodes: unknown[] };

const ids = {
  live: '11111111-1111-4111-8111-111111111111',
  hot: '22222222-2222-4222-8222-222222222222',
  first: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  second: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  third: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
};

function session(sessionId: string, cwd: string, from = 0) {
  let n = from;
  const extra = { sessionId, cwd };
  const at = () => new Date(NOW - 3_600_000 + n * 20_000).toISOString();
  return {
    prompt: (text: string): RawEntry => userPromptLine(text, { extra, timestamp: at() }),
    /** One response that reads a file: the context it reports is `tokens`. */
    response: (tokens: number): RawEntry[] => {
      n++;
      const id = `msg_${sessionId.slice(0, 4)}_${n}`;
      return [
        assistantLine({
          id,
          extra,
          timestamp: at(),
          usage: { input: 10, cacheCreation: 2_000, cacheRead: tokens - 2_010, output: 50 },
          content: [toolUseBlock(`toolu_${id}`, 'Read', { file_path: `${cwd}/src/file${n}.ts` })],
        }),
        toolResultLine({ toolUseId: `toolu_${id}`, content: 'ok', extra, timestamp: at() }),
      ];
    },
  };
}

describe('shim ui: now, lineage, themes, keyboard, accessibility', { timeout: 240_000 }, () => {
  let root: string;
  let env: Record<string, string>;
  let projects: string;
  let browser: Browser;
  let dashboard: Dashboard;
  let shots: string;
  const problems: string[] = [];
  const transcripts: Record<string, string> = {};

  async function open(hash: string, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.emulateMedia({ colorScheme: scheme });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${dashboard.url}${hash}`);
    return page;
  }

  function write(id: string, cwd: string, entries: RawEntry[]): string {
    const path = join(projects, `${id}.jsonl`);
    writeFileSync(path, toJsonl(entries));
    transcripts[id] = path;
    return path;
  }

  before(async () => {
    root = makeTempDir('shim-ui-live-');
    shots = join(root, 'screenshots');
    mkdirSync(shots);
    projects = join(root, 'claude', 'projects', '-work-app');
    mkdirSync(projects, { recursive: true });
    env = {
      PATH: process.env.PATH ?? '',
      HOME: root,
      SHIM_HOME: join(root, 'shim'),
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
      NO_COLOR: '1',
      TZ: 'UTC',
    };
    const cwd = join(root, 'app');
    mkdirSync(cwd);
    // Two running sessions: one half full, one past L3.
    const calm = session(ids.live, cwd);
    write(ids.live, cwd, [
      calm.prompt('Add the CSV importer'),
      ...calm.response(40_000),
      ...calm.response(52_000),
    ]);
    const hot = session(ids.hot, cwd);
    write(ids.hot, cwd, [
      hot.prompt('Refactor the billing module (ANV-7)'),
      ...hot.response(120_000),
      ...hot.response(150_000),
      ...hot.response(158_000),
    ]);
    // A chain: the first session compacts, crashes, is resumed; the second hands off to a third.
    const chain = [ids.first, ids.second, ids.third].map((id) => session(id, cwd));
    write(ids.first, cwd, [
      chain[0]!.prompt('Port the report generator to the new template engine'),
      ...chain[0]!.response(30_000),
    ]);
    write(ids.second, cwd, [chain[1]!.prompt('continue'), ...chain[1]!.response(25_000)]);
    write(ids.third, cwd, [chain[2]!.prompt('continue'), ...chain[2]!.response(22_000)]);
    const checkpoint = async (id: string, minutes: number) =>
      (
        await createCheckpoint({
          log: logOf(transcripts[id]!),
          cwd,
          env,
          home: env.SHIM_HOME!,
          now: NOW - minutes * 60_000,
          trigger: 'tool_call_interval',
          snapshot: false,
        })
      ).checkpoint.id;
    const firstCheckpoint = await checkpoint(ids.first, 50);
    const secondCheckpoint = await checkpoint(ids.second, 30);
    await checkpoint(ids.hot, 2);
    const db = openDatabase(env.SHIM_HOME!);
    try {
      const resumes = new ResumeRepository(db);
      const restore = (checkpointId: string, into: string, minutes: number, reason: string) =>
        resumes.record({
          checkpointId,
          sessionId: into,
          restoredAt: new Date(NOW - minutes * 60_000).toISOString(),
          interruptionReason: reason,
          timeSinceCheckpoint: 60_000,
          resumeConfidence: 0.9,
        });
      restore(firstCheckpoint, ids.first, 45, 'compaction');
      restore(firstCheckpoint, ids.second, 40, 'crash');
      restore(secondCheckpoint, ids.third, 20, 'handoff');
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

  async function shoot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    if (process.env.SHIM_UPDATE_SCREENSHOTS === '1')
      await page.screenshot({
        path: join(DOCS_IMAGES, `dashboard-${name}.png`),
        clip: { x: 0, y: 0, width: 1280, height: 860 },
      });
  }

  test('Now: the running sessions, nearest to compaction first and standing out', async () => {
    const page = await open('#/');
    await page.waitForSelector('#app[data-ready="live"]');
    const cards = page.locator('.live-card');
    // The chain's sessions wrote in the last minutes too: every recent transcript without an end.
    const order = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-session')));
    assert.equal(order[0], ids.hot, 'the fullest first');
    const hot = page.locator(`.live-card[data-session="${ids.hot}"]`);
    assert.match((await hot.getAttribute('class')) ?? '', /imminent|near/);
    assert.match((await hot.locator('.badge').textContent()) ?? '', /compact/);
    assert.match((await hot.locator('.live-title').textContent()) ?? '', /billing module/);
    assert.match((await hot.locator('[data-col="checkpoint"]').textContent()) ?? '', /ago/);
    const calm = page.locator(`.live-card[data-session="${ids.live}"]`);
    assert.equal(await calm.locator('.badge').count(), 0, 'a calm session has no alarm');
    assert.match((await calm.locator('.tokens').textContent()) ?? '', /^52k of \d+k tokens/);
    assert.equal(await page.locator('.gauge[role="meter"]').count(), await cards.count());
    assert.match(
      (await page.locator(`.live-card[data-session="${ids.third}"] .live-title`).textContent()) ??
        '',
      /Port the report generator/,
      'a resumed session shows the goal it inherited, not "continue"',
    );
    await page.close();
  });

  test("a session's context moves on Now without a reload while a hook records responses", async () => {
    const page = await open('#/');
    await page.waitForSelector(`.live-card[data-session="${ids.live}"]`);
    await page.evaluate(() => ((globalThis as unknown as InPage).stayed = true));
    const card = `.live-card[data-session="${ids.live}"]`;
    const before = Number(await page.getAttribute(card, 'data-percent'));
    const cwd = join(root, 'app');
    const next = session(ids.live, cwd, 2);
    for (const [i, tokens] of [96_000, 139_000].entries()) {
      // The next response lands, then Claude Code runs the PostToolUse hook for its tool call.
      appendFileSync(transcripts[ids.live]!, toJsonl(next.response(tokens)));
      const hook = runShim(env.SHIM_HOME!, ['hook', 'PostToolUse'], {
        env: { CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR! },
        input: JSON.stringify({
          session_id: ids.live,
          transcript_path: transcripts[ids.live],
          cwd,
          hook_event_name: 'PostToolUse',
          tool_name: 'Read',
          tool_input: { file_path: `${cwd}/src/next${i}.ts` },
          tool_response: { type: 'text', file: { content: 'ok' } },
        }),
      });
      assert.equal(hook.status, 0, hook.stderr);
      await page
        .waitForFunction(
          ([selector, text]) =>
            ((globalThis as unknown as InPage).document
              .querySelector(`${selector} .tokens`)
              ?.getAttribute('data-tokens') ?? '') === text,
          [card, String(tokens)] as const,
          { timeout: 30_000 },
        )
        .catch(async (error: unknown) => {
          const shown = await page.locator('.live-list').innerHTML();
          throw new Error(`${String(error)}\n${shown.slice(0, 3000)}`);
        });
    }
    const afterPercent = Number(await page.getAttribute(card, 'data-percent'));
    assert.ok(afterPercent > before, `${before}% → ${afterPercent}%`);
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as InPage).stayed),
      true,
      'no reload',
    );
    await page.close();
  });

  test('a compaction, a crash resume and a handoff are drawn as one lineage', async () => {
    for (const id of [ids.first, ids.third]) {
      const page = await open(`#/session/${id}`);
      await page.waitForSelector('#app[data-ready="timeline"]');
      const steps = await page
        .locator('.lineage-step')
        .evaluateAll((els) =>
          els.map(
            (e) => `${e.getAttribute('data-session')!.slice(0, 4)}#${e.getAttribute('data-part')}`,
          ),
        );
      assert.deepEqual(steps, ['aaaa#1', 'aaaa#2', 'bbbb#1', 'cccc#1']);
      const reasons = await page
        .locator('.lineage-link')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-reason')));
      assert.deepEqual(reasons, ['compaction', 'crash', 'handoff']);
      assert.match(
        (await page.locator('.lineage .goal').textContent()) ?? '',
        /Port the report generator/,
        'the chain\'s goal, not the later sessions\' "continue"',
      );
      assert.match(
        (await page.locator('.lineage-link[data-reason="crash"] .carried').textContent()) ?? '',
        /carried 1 request, \d+ open tasks?, \d+ files?/,
      );
      const current = await page
        .locator('.lineage-step.current')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-session')));
      assert.ok(current.length > 0 && current.every((s) => s === id), current.join(' '));
      await page.close();
    }
  });

  test('keyboard: skip link, views and a session are reached with Tab and Enter', async () => {
    const page = await open('#/');
    await page.waitForSelector('#app[data-ready="live"]');
    const focused = () =>
      page.evaluate(() => {
        const el = (globalThis as unknown as InPage).document.activeElement;
        return el
          ? `${el.tagName}:${el.getAttribute('href') ?? el.getAttribute('class') ?? ''}`
          : '';
      });
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'A:#app', 'the skip link comes first');
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    assert.ok(seen.includes('A:#/sessions'), seen.join(' '));
    const firstCard = seen.find((s) => s.startsWith('A:#/session/'));
    assert.ok(firstCard, `a session's link is reached: ${seen.join(' ')}`);
    while ((await focused()) !== firstCard) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#app[data-ready="timeline"]');
    await page.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`every page in the ${scheme} theme: no serious accessibility violation, a screenshot`, async () => {
      const pages: Array<[string, string, string]> = [
        ['now', '#/', 'live'],
        ['sessions', '#/sessions', 'sessions'],
        ['lineage', `#/session/${ids.third}`, 'timeline'],
        ['loops', '#/loops', 'loops'],
      ];
      const found: string[] = [];
      for (const [name, hash, ready] of pages) {
        const page = await browser.newPage({
          viewport: { width: 1280, height: 860 },
          bypassCSP: true, // axe is injected as a script of its own; the page's policy is tested elsewhere
        });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${dashboard.url}${hash}`);
        await page.waitForSelector(`#app[data-ready="${ready}"]`);
        await page.addScriptTag({ content: axe.source });
        const result = await page.evaluate(() =>
          (globalThis as unknown as InPage).axe.run((globalThis as unknown as InPage).document, {
            resultTypes: ['violations'],
          }),
        );
        for (const v of result.violations)
          if (v.impact === 'serious' || v.impact === 'critical')
            found.push(`${name}: ${v.id} (${v.impact}) ${v.help} ×${v.nodes.length}`);
        await shoot(page, `${name}-${scheme}`);
        await page.close();
      }
      assert.deepEqual(found, []);
    });
  }

  test('a narrow window (half a laptop screen): Now and a timeline fit without sideways scrolling', async () => {
    for (const hash of ['#/', `#/session/${ids.first}`]) {
      const page = await browser.newPage({ viewport: { width: 640, height: 800 } });
      await page.goto(`${dashboard.url}${hash}`);
      await page.waitForSelector('#app[data-ready]');
      const overflow = await page.evaluate(() => {
        const d = (
          globalThis as unknown as {
            document: { documentElement: { scrollWidth: number; clientWidth: number } };
          }
        ).document.documentElement;
        return d.scrollWidth - d.clientWidth;
      });
      assert.ok(overflow <= 1, `${hash}: ${overflow}px wider than the window`);
      await page.close();
    }
  });

  test('no page broke its Content-Security-Policy or logged an error', () => {
    assert.deepEqual(problems, []);
  });
});
