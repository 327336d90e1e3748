/**
 * `shim ui` figures, in Debian's Chromium through playwright-core:
 *
 * 1. The server's start: `shim ui --port 0 --json` spawned until it prints its link, against
 *    `node -e ''` measured in the same run (NODE_EXTRA_CA_CERTS unset).
 * 2. First paint of Now with 50 running sessions (target ≤ 300 ms), and of the session list with 1,000 sessions in the store (each with a small real
 *    transcript; 20 projects): navigation start to the list drawn, on the first launch (the
 *    newest 200 transcripts read and their cursors cached) and on later loads.
 * 3. First paint of the timeline of the ≥ 20 MB transcript: replayed on first view, then served
 *    from the server's cache.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, utimesSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { SessionRepository } from '../src/store/checkpoints/session-repository.ts';
import { launchChromium } from '../test/helpers/browser.ts';
import { BIN } from '../test/helpers/cli.ts';
import { fixturePath, makeTempDir } from '../test/helpers/fixtures.ts';

type Report = (name: string, value: string, note?: string) => void;

const SESSIONS = 1_000;
const PROJECTS = 20;
/** Sessions running now, for the live page. */
const LIVE = 50;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function startUi(env: Record<string, string | undefined>) {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'ui', '--port', '0', '--json'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise<{ url: string; ms: number; stop: () => void }>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => {
      const ms = performance.now() - started;
      resolve({ url: (JSON.parse(line) as { url: string }).url, ms, stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`shim ui exited with ${code}`)));
  });
}

export async function runDashboardBench(
  report: Report,
  results: Record<string, unknown>,
  largeTranscript: string,
  childEnv: Record<string, string | undefined>,
): Promise<void> {
  const root = makeTempDir('shim-bench-ui-');
  const home = join(root, 'shim');
  const claude = join(root, 'claude');
  const env = { ...childEnv, SHIM_HOME: home, CLAUDE_CONFIG_DIR: claude };
  const small = fixturePath('spotter-short-v2.1.38.jsonl');
  const db = openDatabase(home);
  try {
    const sessions = new SessionRepository(db);
    for (let i = 0; i < SESSIONS; i++) {
      const project = `/work/project-${i % PROJECTS}`;
      const dir = join(claude, 'projects', `-work-project-${i % PROJECTS}`);
      mkdirSync(dir, { recursive: true });
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const path = join(dir, `${id}.jsonl`);
      copyFileSync(small, path);
      // The newest LIVE of them are running now (written a minute ago); the rest went quiet.
      const age = i >= SESSIONS - LIVE ? 60 : 86_400 + i;
      const at = Date.now() / 1000 - age;
      utimesSync(path, at, at);
      sessions.touch(
        {
          agent: 'claude',
          sessionId: id,
          transcriptPath: path,
          cwd: project,
          model: 'claude-opus-4-6',
        },
        new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
      );
    }
  } finally {
    db.close();
  }
  const largeDir = join(claude, 'projects', '-work-large');
  mkdirSync(largeDir, { recursive: true });
  copyFileSync(largeTranscript, join(largeDir, 'large-session.jsonl'));

  // 1. Start time.
  const baseline: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await new Promise((r) =>
      spawn(process.execPath, ['-e', ''], { env: childEnv }).once('exit', r),
    );
    baseline.push(performance.now() - t0);
    const ui = await startUi(env);
    starts.push(ui.ms);
    ui.stop();
  }
  report("node -e ''", fmt(median(baseline)), 'baseline (this run)');
  report(
    'shim ui: start until its link is printed',
    fmt(median(starts)),
    `${(median(starts) / median(baseline)).toFixed(2)}× node`,
  );

  // 2 and 3. First paint, in the browser.
  const browser = await launchChromium();
  const ui = await startUi(env);
  try {
    const paint = async (hash: string, mark: string, ready: string) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${ui.url}${hash}`);
      await page.waitForSelector(`#app[data-ready="${ready}"]`, { timeout: 120_000 });
      const ms = await page.evaluate(
        (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN,
        mark,
      );
      await page.close();
      return ms;
    };
    const liveCold = await paint('#/', 'live-rendered', 'live');
    const liveWarm: number[] = [];
    for (let i = 0; i < 5; i++) liveWarm.push(await paint('#/', 'live-rendered', 'live'));
    report(
      `Now, ${LIVE} running sessions: first launch`,
      fmt(liveCold),
      'navigation to the gauges drawn; each transcript read and its cursor cached',
    );
    report('  later loads', fmt(median(liveWarm)), 'median of 5 (target ≤ 300 ms)');
    const listCold = await paint('#/sessions', 'sessions-rendered', 'sessions');
    const listWarm: number[] = [];
    for (let i = 0; i < 5; i++)
      listWarm.push(await paint('#/sessions', 'sessions-rendered', 'sessions'));
    report(
      `session list, ${SESSIONS} sessions: first launch`,
      fmt(listCold),
      'navigation to the list drawn; the newest 200 transcripts read and cached',
    );
    report('  later loads', fmt(median(listWarm)), 'median of 5');
    const timelineCold = await paint('#/session/large-session', 'timeline-rendered', 'timeline');
    const timelineWarm: number[] = [];
    for (let i = 0; i < 3; i++)
      timelineWarm.push(await paint('#/session/large-session', 'timeline-rendered', 'timeline'));
    report('timeline of the 20 MB transcript: first view', fmt(timelineCold), 'replayed');
    report('  later views', fmt(median(timelineWarm)), 'from the server’s cache, median of 3');
    results.dashboard = {
      nodeBaselineMs: median(baseline),
      startMs: median(starts),
      liveFirstLaunchMs: liveCold,
      liveMs: median(liveWarm),
      listFirstLaunchMs: listCold,
      listMs: median(listWarm),
      timelineFirstMs: timelineCold,
      timelineMs: median(timelineWarm),
    };
  } finally {
    await browser.close();
    ui.stop();
  }
}
