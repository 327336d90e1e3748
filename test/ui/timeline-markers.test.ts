/**
 * Issue 42 item 6: on a session's timeline in a real Chromium, a compaction's label is not drawn
 * over the checkpoint taken just before that compaction (both sit where the context peaked).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { readSessionHead } from '../../src/agents/claude/sniff.ts';
import { launchChromium } from '../helpers/browser.ts';
import { runShim } from '../helpers/cli.ts';
import { startDashboard, type Dashboard } from '../helpers/dashboard.ts';
import { FIXTURES_MISSING, fixturePath, makeTempDir } from '../helpers/fixtures.ts';

/** A real session with two auto compactions. */
const SESSION_LOG = 'entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl';

type Box = { left: number; right: number; top: number; bottom: number };
const overlap = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('timeline markers', { timeout: 120_000, skip: FIXTURES_MISSING }, () => {
  let root: string;
  let sessionId: string;
  let browser: Browser;
  let dashboard: Dashboard;

  before(async () => {
    root = makeTempDir('shim-ui-markers-');
    const home = join(root, 'shim');
    const projects = join(root, 'claude', 'projects', '-work-demo');
    mkdirSync(projects, { recursive: true });
    const source = fixturePath(SESSION_LOG);
    sessionId = readSessionHead(source).sessionId!;
    const log = join(projects, `${sessionId}.jsonl`);
    const lines = readFileSync(source, 'utf8').split('\n');
    const boundaries = lines.flatMap((l, i) => (l.includes('"compact_boundary"') ? [i + 1] : []));
    assert.ok(boundaries.length >= 2, 'the session compacts twice');
    // The session as it was a few responses after its second compaction: that one sits near the
    // right edge, its label drawn on the rule's left — where the context peaked.
    const second = boundaries[1]!;
    const after = lines.slice(second).filter((l) => /"type":"assistant"/.test(l)).length;
    assert.ok(after > 10, 'responses after the second compaction');
    let kept = second;
    for (let responses = 0; responses < 6 && kept < lines.length; kept++)
      if (/"type":"assistant"/.test(lines[kept]!)) responses++;
    writeFileSync(log, `${lines.slice(0, kept).join('\n')}\n`);
    // A checkpoint at the last line before each compaction, as PreCompact takes one.
    for (const line of boundaries.slice(0, 2)) {
      const made = runShim(
        home,
        ['checkpoint', '--transcript', log, '--until-line', String(line - 1), '--no-snapshot'],
        { env: { CLAUDE_CONFIG_DIR: join(root, 'claude') } },
      );
      assert.equal(made.status, 0, made.stderr);
    }
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

  for (const width of [1280, 700, 420])
    test(`at ${width} px, no compaction label covers a checkpoint marker`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${dashboard.url}#/session/${sessionId}`);
      await page.waitForSelector('#app[data-ready="timeline"]');
      const box = (selector: string) =>
        page.locator(selector).evaluateAll((els) =>
          els.map((e) => {
            const r = e.getBoundingClientRect();
            return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
          }),
        );
      const labels = await box('.marker-compaction span');
      const checkpoints = await box('.marker-checkpoint');
      assert.equal(labels.length, 2, 'two compaction labels');
      assert.equal(checkpoints.length, 2, 'two checkpoint markers');
      for (const label of labels)
        for (const marker of checkpoints)
          assert.ok(
            !overlap(label, marker),
            `label ${JSON.stringify(label)} covers marker ${JSON.stringify(marker)}`,
          );
      await page.close();
    });
});
