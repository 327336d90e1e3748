/**
 * Test files sharing a test process (scripts/test-share.mjs, scripts/compile-tests.mjs): which
 * files run alone, how the others are put together, and what a shared process keeps of a file
 * of its own — its hooks, its name and lines in the reports, its CPU time.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error -- a plain ES module of the build scripts, without types
import { compileTests } from '../scripts/compile-tests.mjs';
// @ts-expect-error -- a plain ES module of the build scripts, without types
import { ownProcessReason, processesOf } from '../scripts/test-share.mjs';

const ROOT = join(import.meta.dirname, '..');
const reasonOf = ownProcessReason as (text: string) => string | null;
type Process = { files: string[]; shared: boolean };
const processesFor = processesOf as (
  files: string[],
  options: {
    reasonOf: (f: string) => string | null;
    weightOf: (f: string) => number;
    limitMs?: number;
    maxFiles?: number;
  },
) => Process[];

test('a file that changes the process, starts processes or sets timers runs alone', () => {
  const alone: Array<[string, string]> = [
    ['process.env.SHIM_HOME = home;', 'changes process.env'],
    ["process.env['HOME'] = dir;", 'changes process.env'],
    ['delete process.env.GIT_DIR;', 'changes process.env'],
    ['Object.assign(process.env, saved);', 'changes process.env'],
    ['process.chdir(dir);', 'changes the process'],
    ["process.on('exit', done);", 'changes the process'],
    ['process.exitCode = 1;', 'changes the process'],
    ['globalThis.fetch = fake;', 'changes a global'],
    ["import { spawn } from 'node:child_process';", 'starts processes'],
    ['await new Promise((r) => setTimeout(r, 10));', 'sets timers'],
    ['mock.timers.enable();', 'mocks for the process'],
    ['const data = await load();', 'awaits at the top level'],
    ['await setup();', 'awaits at the top level'],
    ['// test-process: own (the module caches its first home)', 'marked'],
  ];
  for (const [text, reason] of alone) assert.equal(reasonOf(`x;\n${text}\n`), reason, text);
  const shared = [
    "const home = process.env.SHIM_HOME ?? '/tmp';",
    "spawnShim(['status'], { env: { ...process.env, SHIM_HOME: home } });",
    "if (process.env.CI === '1') skip();",
    "test('x', async () => {\n  const data = await load();\n});",
    'const timeoutMs = 5;',
  ];
  for (const text of shared) assert.equal(reasonOf(`x;\n${text}\n`), null, text);
});

test('files that may share go into processes of a bounded time, in order; the others alone', () => {
  const weights: Record<string, number> = { a: 10, b: 10, own: 5, c: 25, d: 1, e: 1, f: 1 };
  const processes = processesFor(['a', 'b', 'own', 'c', 'd', 'e', 'f'], {
    reasonOf: (f) => (f === 'own' ? 'starts processes' : null),
    weightOf: (f) => weights[f]!,
    limitMs: 30,
    maxFiles: 2,
  });
  assert.deepEqual(processes, [
    { files: ['a', 'b'], shared: true },
    { files: ['own'], shared: false },
    { files: ['c', 'd'], shared: true },
    { files: ['e', 'f'], shared: true },
  ]);
  // A shared process of one file is that file's own process.
  assert.deepEqual(processesFor(['x'], { reasonOf: () => null, weightOf: () => 1 }), [
    { files: ['x'], shared: false },
  ]);
});

test('a shared process: each file keeps its hooks, its name and lines in the report, its CPU time', async () => {
  const dir = join(ROOT, 'node_modules', '.cache', `shim-test-share-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, 'hits.ts'), 'export const hits: string[] = [];\n');
    writeFileSync(
      join(dir, 'a.test.ts'),
      [
        "import { after, beforeEach, test } from 'node:test';",
        "import { hits } from './hits.ts';",
        "beforeEach(() => hits.push('a each'));",
        "after(() => hits.push('a after'));",
        "test('a one', () => {});",
        "test('a two', () => {});",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'b.test.ts'),
      [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        "import { hits } from './hits.ts';",
        "test('b sees only what a did, before it', () => {",
        "  assert.deepEqual(hits, ['a each', 'a each', 'a after']);",
        '});',
        "test('b fails here', () => {",
        "  assert.equal(1, 2, 'the failure of b');",
        '});',
        '',
      ].join('\n'),
    );
    const a = relative(ROOT, join(dir, 'a.test.ts'));
    const b = relative(ROOT, join(dir, 'b.test.ts'));
    const preload = 'test/helpers/test-file-process.ts';
    const run = (await compileTests([], [preload], new Map([['both', [a, b]]]))) as {
      compiled: (f: string) => string;
      compiledShared: (name: string) => string;
      remove: () => void;
    };
    try {
      const cpuLog = join(dir, 'cpu.log');
      const result = spawnSync(
        process.execPath,
        [
          '--enable-source-maps',
          '--import',
          run.compiled(preload),
          '--test',
          '--test-reporter=./scripts/test-spec-reporter.mjs',
          '--test-reporter-destination=stdout',
          '--test-reporter=./scripts/test-reporter.mjs',
          `--test-reporter-destination=${join(dir, 'summary.json')}`,
          run.compiledShared('both'),
        ],
        {
          cwd: ROOT,
          encoding: 'utf8',
          // A runner of its own, not a test file's runner run inside this one.
          env: { ...process.env, NODE_TEST_CONTEXT: undefined, SHIM_TEST_CPU_LOG: cpuLog },
        },
      );
      assert.equal(result.status, 1, result.stdout + result.stderr);
      // b's first test passed: a's beforeEach ran for a's tests only, a's after before b.
      assert.match(result.stdout, /✔ b sees only what a did, before it/);
      // Each file is named by its path; the failure by b's path and its source line.
      assert.match(result.stdout, new RegExp(`▶ ${a.replaceAll('.', '\\.')}`));
      assert.match(result.stdout, new RegExp(`✖ ${b.replaceAll('.', '\\.')}`));
      assert.match(result.stdout, new RegExp(`test at ${b.replaceAll('.', '\\.')}:7:1`));
      assert.match(result.stdout, new RegExp(`${b.replaceAll('.', '\\.')}:8:10`));
      const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
        counts: Record<string, number>;
        files: Record<string, { ok: boolean }>;
      };
      assert.deepEqual(
        Object.fromEntries(
          Object.entries(summary.files).map(([f, v]) => [relative(ROOT, f), v.ok]),
        ),
        { [a]: true, [b]: false },
      );
      assert.equal(summary.counts.pass, 3);
      assert.equal(summary.counts.fail, 1);
      const logged = readFileSync(cpuLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]);
      assert.deepEqual(logged, [a, b], 'one CPU line per file, none for the process');
    } finally {
      run.remove();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
