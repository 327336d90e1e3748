// Runs the *.test.ts files under src/ and test/ with Node's own test runner (compiled once per
// run: scripts/compile-tests.mjs), group by group (scripts/test-groups.mjs: a file's folder
// decides its group).
//
//   node scripts/test.mjs                 the whole suite (`npm test`, what CI runs)
//   node scripts/test.mjs --quick         the inner loop: unit and integration, no real CLI,
//                                         server or browser, no file marked slow
//                                         (`npm run test:quick`; scripts/test-speed.mjs)
//   node scripts/test.mjs --changed[=<ref>]  a change's first check: the unit and integration
//                                         files the change reaches through imports (`npm run
//                                         test:changed`; scripts/test-select.mjs)
//   node scripts/test.mjs <part> …        the files whose path contains one of the parts
//   node scripts/test.mjs --list [<part>]  which files would run, by group; runs nothing
//   … --save-times                        also writes the run's file times into
//                                         scripts/test-times.json (the order CI starts from)
//   node scripts/test.mjs --help          this text
//
// The groups of the two lanes run at the same time (the waiting groups several files at once),
// each group's files longest first and the CPU-bound groups in batches either lane may take
// (scripts/test-order.mjs); each batch's output is printed whole when it ends (live when only
// one runs). The last lines are each group's times (wall and CPU) and one `N passed, N failed`
// line for the whole run; with SHIM_TEST_SUMMARY=<file> the same figures are written there as
// JSON (.ci/run prints them).
//
// The unit files share test processes, several files one after another in one, each in a suite
// of its own (scripts/test-share.mjs says which run alone); SHIM_TEST_SHARE=0 gives each file
// its own process.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { compileTests, sourceOf } from './compile-tests.mjs';
import { batch, readTimes, saveTimes, weigh } from './test-order.mjs';
import { makeRunDir, removeRunDir } from './test-run-dir.mjs';
import { ownProcessReason, processesOf } from './test-share.mjs';
import { slowReason } from './test-speed.mjs';
import { GROUPS, groupOf } from './test-groups.mjs';
import { ensureE2eClaude } from './install-e2e-claude.mjs';
import { ensureE2eCodex } from './install-e2e-codex.mjs';
import { ensureE2eGemini } from './install-e2e-gemini.mjs';

const ROOT = resolve(import.meta.dirname, '..');
process.chdir(ROOT);

// The dashboard's browser tests (test/ui/) drive Debian's Chromium through playwright-core
// (browsers cannot be downloaded here). A developer's test run installs nothing: without a
// Chromium it says what is missing and skips those tests (.ci/run installs it for CI;
// SHIM_REQUIRE_CHROMIUM=1 runs them anyway, so they fail with what to install).
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const hasChromium = () =>
  Boolean(process.env.SHIM_CHROMIUM) || CHROMIUM.some((path) => existsSync(path));

// The suite's SHIM_HOMEs are thrown away after each test: the warm look's processes they start
// (src/hook/warm-look/) leave after 5 s without a call instead of 10 min, so a run does not
// keep a few hundred of them waiting (tests that need longer set their own).
process.env.SHIM_WARM_LOOK_IDLE_MS ??= '5000';

const args = process.argv.slice(2);
// An option it does not know is a mistake, not "run everything" (a whole suite by accident).
const OPTIONS = ['--quick', '--changed', '--list', '--save-times', '--help', '-h'];
const unknown = args.filter(
  (a) => a.startsWith('-') && !OPTIONS.includes(a) && !a.startsWith('--changed='),
);
if (args.includes('--help') || args.includes('-h') || unknown.length) {
  const usage = readFileSync(new URL(import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('//   '))
    .map((line) => line.slice(5))
    .join('\n');
  if (unknown.length)
    process.stderr.write(
      `scripts/test.mjs: no option ${unknown.join(', ')}; it takes:\n${usage}\n`,
    );
  else process.stdout.write(`${usage}\n`);
  process.exit(unknown.length ? 2 : 0);
}
const changedArg = args.find((a) => a === '--changed' || a.startsWith('--changed='));
const quick = args.includes('--quick') || Boolean(changedArg);
const listOnly = args.includes('--list');
const parts = args.filter((a) => !a.startsWith('-'));
// The inner loop runs no agent CLI session and downloads nothing (the plugin test's npm ci).
if (quick) {
  process.env.SHIM_SKIP_E2E = '1';
  process.env.SHIM_SKIP_PLUGIN_NPM = '1';
}

const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.test.ts')) files.push(path.split('\\').join('/'));
  }
};
for (const root of ['src', 'test']) walk(root);
files.sort();

let selected = parts.length ? files.filter((f) => parts.some((p) => f.includes(p))) : files;
if (quick) selected = selected.filter((f) => groupOf(f).quick);
// The inner loop leaves the files marked slow to the whole suite, and says which
// (scripts/test-speed.mjs); a change's own check runs them when it reaches them.
const leftSlow = [];
if (quick && !changedArg) {
  for (const file of selected) {
    const reason = slowReason(readFileSync(file, 'utf8'));
    if (reason !== null) leftSlow.push([file, reason]);
  }
  const left = new Set(leftSlow.map(([file]) => file));
  selected = selected.filter((f) => !left.has(f));
}
if (changedArg) {
  const { changedFiles, describeChange, testsReached } = await import('./test-select.mjs');
  const changed = changedFiles(ROOT, changedArg.split('=')[1]);
  selected = await testsReached(ROOT, selected, changed);
  process.stdout.write(
    `${describeChange(ROOT, changed)}: ${selected.length} test file${selected.length === 1 ? '' : 's'} reach${selected.length === 1 ? 'es' : ''} it\n`,
  );
  if (!selected.length) process.exit(0);
}
const skippedBrowser = selected.filter((f) => groupOf(f).needs.includes('chromium'));
if (skippedBrowser.length && !hasChromium() && process.env.SHIM_REQUIRE_CHROMIUM !== '1') {
  process.stderr.write(
    `no Chromium: skipping the ${skippedBrowser.length} dashboard browser test files (test/ui/). Install Debian's chromium (sudo apt-get install chromium) or set SHIM_CHROMIUM to a Chrome/Chromium binary to run them.\n`,
  );
  selected = selected.filter((f) => !skippedBrowser.includes(f));
}

// SHIM_TEST_CONCURRENCY=integration=2,unit=2 sets how many files of a group run at once (to try
// another balance on a machine without editing scripts/test-groups.mjs).
const override = new Map(
  (process.env.SHIM_TEST_CONCURRENCY ?? '')
    .split(',')
    .map((pair) => pair.split('='))
    .filter(([name, n]) => name && Number(n) >= 1)
    .map(([name, n]) => [name.trim(), Math.floor(Number(n))]),
);
const alone = !selected.some((f) => groupOf(f).lane === 'wait');
const cores = Math.max(1, availableParallelism());
/**
 * How many of a group's files run at once: its own figure, and at least all cores when no
 * waiting group runs.
 */
const concurrencyOf = (group) =>
  override.get(group.name) ?? (alone ? Math.max(group.concurrency, cores) : group.concurrency);

const groups = GROUPS.map((group) => ({
  group,
  files: selected.filter((f) => groupOf(f) === group),
})).filter((g) => g.files.length > 0);

// What runs as one `node --test`: a group's files longest first, a CPU-bound group's in batches
// of about equal time when two lanes run (scripts/test-order.mjs).
// In a group whose files may share processes (scripts/test-share.mjs), a batch's files run in
// as few processes as they safely can: SHIM_TEST_SHARE=0 gives every file its own, as before.
const times = readTimes(ROOT);
const sharing = process.env.SHIM_TEST_SHARE !== '0' && process.env.SHIM_TEST_TSX !== '1';
const reasons = new Map();
const reasonOf = (file) => {
  if (!reasons.has(file)) reasons.set(file, ownProcessReason(readFileSync(file, 'utf8')));
  return reasons.get(file);
};
const sharedProcesses = new Map();
const batches = groups.flatMap(({ group, files: list }) => {
  const cut = batch(list, times, alone ? 1 : group.batches);
  const weights = weigh(list, times);
  return cut.map((files, index) => {
    const id = cut.length > 1 ? `${group.name}-${index + 1}` : group.name;
    const processes =
      group.share && sharing
        ? processesOf(files, { reasonOf, weightOf: (f) => weights.get(f) })
        : files.map((file) => ({ files: [file], shared: false }));
    let n = 0;
    for (const p of processes)
      if (p.shared) sharedProcesses.set((p.name = `${id}-${++n}`), p.files);
    return {
      group,
      files,
      processes,
      id,
      label: cut.length > 1 ? `${group.name} ${index + 1}/${cut.length}` : group.name,
    };
  });
});

if (leftSlow.length) {
  process.stdout.write(
    `the inner loop leaves ${leftSlow.length} slow file${leftSlow.length === 1 ? '' : 's'} to \`npm test\` (their own \`// test-speed: slow\` line says why):\n`,
  );
  for (const [file, reason] of leftSlow) process.stdout.write(`  ${file} (${reason})\n`);
}
if (listOnly) {
  for (const { group, processes, label } of batches) {
    process.stdout.write(
      `${label} (${group.lane} lane, ${concurrencyOf(group)} at a time): ${group.what}\n`,
    );
    for (const p of processes)
      if (p.shared) {
        process.stdout.write(`  one process: ${p.files.length} files\n`);
        for (const file of p.files) process.stdout.write(`    ${file}\n`);
      } else {
        const reason = group.share && sharing ? reasonOf(p.files[0]) : null;
        process.stdout.write(`  ${p.files[0]}${reason ? ` (alone: ${reason})` : ''}\n`);
      }
  }
  process.exit(0);
}
if (groups.length === 0) {
  process.stderr.write(`no test file matches ${parts.join(', ')}\n`);
  process.exit(1);
}

let installMs = 0;

/** Installs the pinned agent CLIs the e2e tests run (once; later runs find them). */
function installAgentClis(list) {
  if (process.env.SHIM_SKIP_E2E === '1') return;
  const started = Date.now();
  const wants = (needle) => list.some((f) => f.includes(needle));
  const installs = [
    [!process.env.SHIM_CLAUDE_BIN, ensureE2eClaude],
    [wants('codex') || wants('loop-agents') || wants('cross-agent'), ensureE2eCodex],
    [wants('gemini') || wants('loop-agents') || wants('cross-agent'), ensureE2eGemini],
  ];
  for (const [wanted, install] of installs) {
    if (!wanted) continue;
    try {
      install();
    } catch (error) {
      // The tests that need the CLI fail with this message; everything else still runs.
      process.stderr.write(`${error.message}\n`);
    }
  }
  installMs += Date.now() - started;
}

// The test files run compiled (scripts/compile-tests.mjs: one esbuild build for the whole run,
// each file's process then starts with plain node); SHIM_TEST_TSX=1 runs them under tsx instead.
const PRELOAD = 'test/helpers/test-file-process.ts';
const underTsx = process.env.SHIM_TEST_TSX === '1';
const compiledRun = underTsx ? null : await compileTests(selected, [PRELOAD], sharedProcesses);
const runnable = (file) => (compiledRun ? relative(ROOT, compiledRun.compiled(file)) : file);
/** What one test process is started with: a file's compiled path, or a shared process's entry. */
const entryOf = (p) =>
  p.shared ? relative(ROOT, compiledRun.compiledShared(p.name)) : runnable(p.files[0]);
const loaders = compiledRun
  ? ['--enable-source-maps', '--import', `./${runnable(PRELOAD)}`]
  : // tsx's ES-module hooks only: its CommonJS hooks cost every test process time and no test
    // file needs them.
    ['--import', 'tsx/esm', '--import', `./${PRELOAD}`];

// What every test process starts with. The tests talk to 127.0.0.1 only (mock APIs, local
// servers), so a machine's extra CA bundle (NODE_EXTRA_CA_CERTS, set on CI's machines) would only
// cost each Node process the suite starts its parsing: ~70 ms of CPU per start here, and the
// suite starts thousands (every `shim` a test runs, every hook a CLI runs). What reaches the npm
// registry (the plugin test's `npm ci`) gets it back from SHIM_TEST_EXTRA_CA_CERTS.
const testEnv = { ...process.env, TZ: 'UTC' };
if (testEnv.NODE_EXTRA_CA_CERTS) {
  testEnv.SHIM_TEST_EXTRA_CA_CERTS = testEnv.NODE_EXTRA_CA_CERTS;
  delete testEnv.NODE_EXTRA_CA_CERTS;
}

const live = batches.length === 1;
// The run's reports, and its test processes' temp files (TMPDIR; scripts/test-run-dir.mjs): all
// gone when the run ends or is interrupted. What a test keeps across runs on purpose (the
// PostgreSQL cluster template) goes to the machine's temp dir, SHIM_TEST_KEPT_DIR.
const { dir: work, tmp: runTmp } = makeRunDir(tmpdir());
testEnv.SHIM_TEST_KEPT_DIR ??= tmpdir();
testEnv.TMPDIR = runTmp;
const endRun = () => {
  const left = removeRunDir(work);
  if (left) process.stderr.write(`could not remove the run's temp files: ${left}\n`);
};
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, () => {
    endRun();
    compiledRun?.remove();
    process.exit(code);
  });
}
const seconds = (ms) => (ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`);

/**
 * Runs one group's files under Node's test runner: its spec output, its figures. The runner is
 * started through a small Node process that waits for it and reads the CPU time of everything it
 * waited for (/proc/self/stat: its children's user + system time), so each group's CPU time is
 * its own even while the lanes overlap. Detached background jobs a test lets outlive it are not
 * counted.
 */
function runGroup({ group, files: list, processes, id, label }, concurrency) {
  const json = join(work, `${id}.json`);
  const cpu = join(work, `${id}.cpu`);
  const log = join(work, `${id}.log`);
  const fileCpu = join(work, `${id}.files-cpu`);
  const testArgs = [
    ...loaders,
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=./scripts/test-spec-reporter.mjs',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-reporter.mjs',
    `--test-reporter-destination=${json}`,
    // In the order given (longest first): Node's runner would sort them by path.
    ...(compiledRun ? compiledRun.ordered(processes.map(entryOf)) : processes.map(entryOf)),
  ];
  const started = Date.now();
  // Straight into a file, not through this process: a lane installing the agent CLIs (a
  // synchronous npm install) must not stall the other lane's output.
  const out = live ? 'inherit' : openSync(log, 'w');
  const child = spawn(
    process.execPath,
    [join(ROOT, 'scripts', 'test-cpu.mjs'), cpu, process.execPath, ...testArgs],
    {
      stdio: ['ignore', out, out],
      env: { ...testEnv, SHIM_TEST_CPU_LOG: fileCpu },
    },
  );
  if (out !== 'inherit') closeSync(out);
  return new Promise((done) => {
    child.once('close', (code) => {
      const wallMs = Date.now() - started;
      const read = (path) => {
        try {
          return readFileSync(path, 'utf8');
        } catch {
          return null;
        }
      };
      const summary = JSON.parse(read(json)?.trim().split('\n').pop() || '{}');
      const cpuMs = read(cpu) === null ? null : Number(read(cpu));
      const fileCpuMs = {};
      for (const line of (read(fileCpu) ?? '').split('\n')) {
        const [file, ms] = line.split('\t');
        if (file && ms) fileCpuMs[sourceOf(relative(ROOT, file))] = Number(ms);
      }
      const result = {
        name: group.name,
        files: list.length,
        code,
        startedAt: started,
        endedAt: started + wallMs,
        wallMs,
        cpuMs,
        counts: summary.counts ?? {},
        fileTimes: summary.files ?? {},
        fileCpuMs,
      };
      if (!live) {
        process.stdout.write(
          `\n━━ ${label}: ${list.length} files, ${group.what} (${seconds(wallMs)}) ━━\n`,
        );
        process.stdout.write(read(log) ?? '');
      }
      done(result);
    });
  });
}

const started = Date.now();
// Two lanes run at once, each taking the next group of its own kind, then, with none left, the
// next of the other kind: the waiting groups run beside the CPU-bound ones, and a lane that is
// done helps the other. With no waiting group selected (the inner loop), the second lane takes
// the last CPU-bound group (the unit files) beside the first (the integration files, which mostly
// wait on the `shim` processes they start: ~1.3 of 2 cores busy when alone): 92 → 80 s idle.
// A lane takes the other kind's batches from the back: the last batches of the other lane's last
// group, while that lane works through its first. The CPU lane starts first: the waiting lane's
// first step may be installing the agent CLIs (a synchronous npm install, ~25 s on CI), which
// would otherwise hold back the start of the suite's longest lane.
const pending = [...batches];
const lanes = ['cpu', 'wait'].map(async (lane) => {
  const results = [];
  for (;;) {
    const own = pending.findIndex((b) => b.group.lane === lane);
    const entry = pending.splice(own >= 0 ? own : pending.length - 1, 1)[0];
    if (!entry) return results;
    if (entry.group.needs.includes('agent-clis')) installAgentClis(entry.files);
    if (!live) process.stdout.write(`▸ ${entry.label}: ${entry.files.length} files\n`);
    results.push(await runGroup(entry, concurrencyOf(entry.group)));
  }
});
const batchResults = (await Promise.all(lanes)).flat();
const wallMs = Date.now() - started;
endRun();
compiledRun?.remove();

// A group's figures add up its batches: wall from its first batch's start to its last one's end.
const results = GROUPS.flatMap((g) => {
  const runs = batchResults.filter((r) => r.name === g.name);
  if (!runs.length) return [];
  const counts = {};
  for (const r of runs)
    for (const [key, n] of Object.entries(r.counts)) counts[key] = (counts[key] ?? 0) + n;
  const startedAt = Math.min(...runs.map((r) => r.startedAt));
  return [
    {
      name: g.name,
      files: runs.reduce((n, r) => n + r.files, 0),
      code: runs.find((r) => r.code !== 0)?.code ?? 0,
      wallMs: Math.max(...runs.map((r) => r.endedAt)) - startedAt,
      cpuMs: runs.every((r) => r.cpuMs !== null) ? runs.reduce((n, r) => n + r.cpuMs, 0) : null,
      counts,
      fileTimes: Object.assign({}, ...runs.map((r) => r.fileTimes)),
      fileCpuMs: Object.assign({}, ...runs.map((r) => r.fileCpuMs)),
    },
  ];
});
// This run's file times order the next run's files (scripts/test-order.mjs).
saveTimes(
  ROOT,
  Object.fromEntries(
    results.flatMap((r) =>
      Object.entries(r.fileTimes).map(([file, t]) => [relative(ROOT, file), t.ms]),
    ),
  ),
  { shared: args.includes('--save-times') },
);

// The figures: per group, then the whole run.
const count = (r, key) => r.counts[key] ?? 0;
const sum = (key) => results.reduce((n, r) => n + count(r, key), 0);
const cpuTotal = results.every((r) => r.cpuMs !== null)
  ? results.reduce((n, r) => n + r.cpuMs, 0)
  : null;
const top = (pairs) => pairs.sort((a, b) => b[1] - a[1]).slice(0, 6);
const slowest = top(
  results.flatMap((r) =>
    Object.entries(r.fileTimes).map(([file, t]) => [relative(ROOT, file), t.ms ?? 0]),
  ),
);
const costliest = top(results.flatMap((r) => Object.entries(r.fileCpuMs)));
const failedGroups = results.filter((r) => r.code !== 0 || count(r, 'fail') > 0);
const rows = [
  ['group', 'files', 'tests', 'passed', 'failed', 'skipped', 'wall', 'cpu'],
  ...results.map((r) => [
    r.name,
    r.files,
    count(r, 'tests'),
    count(r, 'pass'),
    count(r, 'fail') + count(r, 'cancelled'),
    count(r, 'skipped') + count(r, 'todo'),
    seconds(r.wallMs),
    seconds(r.cpuMs),
  ]),
  [
    'all',
    selected.length,
    sum('tests'),
    sum('pass'),
    sum('fail') + sum('cancelled'),
    sum('skipped') + sum('todo'),
    seconds(wallMs),
    seconds(cpuTotal),
  ],
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
process.stdout.write(
  "\n── test groups (wall: elapsed; cpu: user + system of the group's processes) ──\n",
);
for (const row of rows)
  process.stdout.write(
    `${row.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join('  ')}\n`,
  );
const list = (pairs) => pairs.map(([file, ms]) => `${file} ${seconds(ms)}`).join(', ');
process.stdout.write(`slowest files (wall): ${list(slowest)}\n`);
if (costliest.length) process.stdout.write(`costliest files (cpu): ${list(costliest)}\n`);
if (installMs > 0)
  process.stdout.write(`agent CLIs for the e2e tests: ${seconds(installMs)} to check or install\n`);
for (const r of failedGroups)
  if (count(r, 'fail') === 0) process.stdout.write(`${r.name}: the test runner exited ${r.code}\n`);
// A group whose runner failed with no failing test (it crashed, or a file failed to load) counts
// as one failure: the line never says 0 failed for a run that failed.
const failed =
  sum('fail') + sum('cancelled') + failedGroups.filter((r) => count(r, 'fail') === 0).length;
const passed = sum('pass');
if (process.env.SHIM_TEST_SUMMARY) {
  const groupFigures = results.map((r) => ({
    name: r.name,
    files: r.files,
    wallMs: r.wallMs,
    cpuMs: r.cpuMs,
    counts: r.counts,
    code: r.code,
  }));
  // Each file's wall and CPU time too: what a change to the suite's cost is measured by.
  const fileFigures = Object.fromEntries(
    results.flatMap((r) =>
      Object.entries(r.fileTimes).map(([file, t]) => {
        const path = relative(ROOT, file);
        return [path, { group: r.name, wallMs: t.ms ?? null, cpuMs: r.fileCpuMs[path] ?? null }];
      }),
    ),
  );
  writeFileSync(
    process.env.SHIM_TEST_SUMMARY,
    `${JSON.stringify({ wallMs, cpuMs: cpuTotal, installMs, passed, failed, groups: groupFigures, files: fileFigures }, null, 2)}\n`,
  );
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failedGroups.length ? 1 : 0);
