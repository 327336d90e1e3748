/**
 * scripts/compile-tests.mjs, which `npm test` runs the test files through: a compiled module
 * keeps its source's place (paths built from import.meta) and a compiled file's events name the
 * source file and line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
// @ts-expect-error -- a plain ES module of the build scripts, without types
import { compileTests, eventOfSource, sourceOf } from '../scripts/compile-tests.mjs';
import { SHARED_FIXTURES_DIR } from './helpers/fixtures.ts';

type Compiled = {
  outdir: string;
  compiled: (file: string) => string;
  ordered: (entries: string[]) => string[];
  remove: () => void;
};
type Event = { type: string; data: Record<string, unknown> };

const ROOT = join(import.meta.dirname, '..');
const HELPER = 'test/helpers/fixtures.ts';
// Two small test files, the longer-named one first by name.
const [ERRORS, VERSION] = ['src/core/errors.test.ts', 'src/core/version.test.ts'];
const run = (await compileTests([HELPER, ERRORS, VERSION])) as Compiled;
after(() => run.remove());

test('a compiled module builds its paths from its source file, not from the bundle', async () => {
  const compiled = run.compiled(HELPER);
  assert.match(relative(ROOT, compiled), /^node_modules\/\.cache\/shim-tests\/run-\d+\//);
  const helper = (await import(pathToFileURL(compiled).href)) as {
    SHARED_FIXTURES_DIR: string;
  };
  // `../shared/fixtures` beside the checkout, as the source module finds it.
  assert.equal(helper.SHARED_FIXTURES_DIR, SHARED_FIXTURES_DIR);
});

test("a compiled file's events name its source file, and a line its source's line", () => {
  const compiled = run.compiled(HELPER);
  assert.equal(sourceOf(relative(ROOT, compiled)), HELPER);
  assert.equal(sourceOf('src/a.test.ts'), 'src/a.test.ts', 'a source path stays as it is');

  // The file's own test (node:test names it by its path) and a test inside it, at the line
  // where the compiled file holds the source's `export function makeTempDir`.
  const own = eventOfSource({
    type: 'test:pass',
    data: { name: compiled, file: compiled, nesting: 0 },
  }) as Event;
  assert.equal(own.data.file, join(ROOT, HELPER));
  assert.equal(own.data.name, join(ROOT, HELPER));

  const line = (text: string) =>
    text.split('\n').findIndex((l) => l.includes('function makeTempDir(')) + 1;
  const compiledLine = line(readFileSync(compiled, 'utf8'));
  const sourceLine = line(readFileSync(join(ROOT, HELPER), 'utf8'));
  assert.ok(compiledLine > 0 && sourceLine > 0);
  const inner = eventOfSource({
    type: 'test:fail',
    data: { name: 'a test', file: compiled, line: compiledLine, column: 1, nesting: 1 },
  }) as Event;
  assert.equal(inner.data.file, join(ROOT, HELPER));
  assert.equal(inner.data.line, sourceLine);
  assert.equal(inner.data.name, 'a test');

  const elsewhere = { type: 'test:pass', data: { name: 'x', file: '/tmp/x.test.ts' } };
  assert.equal(eventOfSource(elsewhere), elsewhere, 'other files are left alone');
});

test('a compiled file started with arguments (as shim would be) exits at once and runs nothing', () => {
  // run-in-background.ts starts process.argv[1] with shim's arguments: in a compiled test
  // process that is the test file, which would run its tests again and start another.
  const compiled = run.compiled(HELPER);
  const started = spawnSync(process.execPath, [compiled, 'background', 'checkpoint'], {
    encoding: 'utf8',
  });
  assert.equal(started.status, 1);
  assert.match(started.stderr, /a compiled test file was started with arguments/);
  const alone = spawnSync(process.execPath, [compiled], { encoding: 'utf8' });
  assert.equal(alone.status, 0, alone.stderr);
});

test("the files start in the order they are given, not by name (Node's runner sorts paths)", () => {
  const [first, second] = run.ordered([run.compiled(VERSION), run.compiled(ERRORS)]) as [
    string,
    string,
  ];
  assert.ok(first < second, 'the links sort in the order given');
  assert.equal(sourceOf(relative(ROOT, first)), VERSION, 'a link names its source');
  // A runner of its own, not a child of this file's (which NODE_TEST_CONTEXT would make it).
  const runnerEnv = { ...process.env };
  delete runnerEnv.NODE_TEST_CONTEXT;
  const tap = spawnSync(
    process.execPath,
    ['--test', '--test-concurrency=1', '--test-reporter=tap', second, first],
    { encoding: 'utf8', env: runnerEnv },
  );
  assert.equal(tap.status, 0, tap.stdout + tap.stderr);
  // Each file's first top-level test, as the files ran one after the other.
  const top = [...tap.stdout.matchAll(/^# Subtest: (.+)$/gm)].map((m) => m[1]);
  assert.ok(top.indexOf('parseVersion') >= 0, tap.stdout);
  assert.ok(top.indexOf('parseVersion') < top.indexOf('subclasses keep their own instanceof'));

  // A line in a linked file maps through the link to its source's line.
  const line = readFileSync(run.compiled(VERSION), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes('test('));
  const event = eventOfSource({
    type: 'test:fail',
    data: { name: 'x', file: first, line: line + 1, column: 1, nesting: 1 },
  }) as Event;
  assert.equal(event.data.file, join(ROOT, VERSION));
  assert.equal(typeof event.data.line, 'number');
});
