/**
 * `node scripts/test.mjs --changed` (scripts/test-select.mjs): the test files a change reaches
 * through imports, in a real git repository: a module changed on the branch chooses the tests
 * importing it directly or through another module and no other; an uncommitted change and a new
 * file count; a changed file nothing imports chooses the tests naming it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error -- a plain ES module of the build scripts, without types
import { changedFiles, testsReached } from '../scripts/test-select.mjs';
import { makeTempDir } from './helpers/fixtures.ts';

type Reached = (root: string, tests: string[], changed: string[]) => Promise<string[]>;
const reached = testsReached as Reached;
const changedIn = changedFiles as (root: string, ref?: string) => string[];

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    encoding: 'utf8',
  });

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const TESTS = ['src/low.test.ts', 'src/mid.test.ts', 'src/other.test.ts', 'test/reads.test.ts'];

function project(): string {
  const root = makeTempDir('shim-test-select-');
  git(root, 'init', '-q', '-b', 'main');
  write(root, {
    'src/low.ts': 'export const low = 1;\n',
    'src/mid.ts': "import { low } from './low.ts';\nexport const mid = low + 1;\n",
    'src/other.ts': 'export const other = 3;\n',
    'src/low.test.ts': "import { low } from './low.ts';\nconsole.log(low);\n",
    'src/mid.test.ts': "import { mid } from './mid.ts';\nconsole.log(mid);\n",
    'src/other.test.ts': "import { other } from './other.ts';\nconsole.log(other);\n",
    'test/fixtures/sample.jsonl': '{}\n',
    'test/reads.test.ts': "console.log('fixtures/sample.jsonl');\n",
  });
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'base');
  git(root, 'checkout', '-qb', 'work');
  return root;
}

test('a module changed on the branch chooses the tests that import it, directly or not', async () => {
  const root = project();
  write(root, { 'src/low.ts': 'export const low = 2;\n' });
  git(root, 'commit', '-qam', 'low changed');
  assert.deepEqual(changedIn(root), ['src/low.ts']);
  assert.deepEqual(await reached(root, TESTS, changedIn(root)), [
    'src/low.test.ts',
    'src/mid.test.ts',
  ]);
});

test('uncommitted and new files count; a changed test file chooses itself', async () => {
  const root = project();
  write(root, {
    'src/other.ts': 'export const other = 4;\n',
    'src/new.test.ts': "import { mid } from './mid.ts';\nconsole.log(mid);\n",
  });
  const changed = changedIn(root);
  assert.deepEqual(changed, ['src/new.test.ts', 'src/other.ts']);
  assert.deepEqual(await reached(root, [...TESTS, 'src/new.test.ts'], changed), [
    'src/other.test.ts',
    'src/new.test.ts',
  ]);
});

test('a changed file nothing imports chooses the tests that name it; nothing else', async () => {
  const root = project();
  write(root, { 'test/fixtures/sample.jsonl': '{"changed":true}\n' });
  assert.deepEqual(await reached(root, TESTS, changedIn(root)), ['test/reads.test.ts']);
  // A ref given: what differs from it.
  git(root, 'commit', '-qam', 'fixture');
  assert.deepEqual(changedIn(root, 'HEAD'), []);
  assert.deepEqual(changedIn(root, 'main'), ['test/fixtures/sample.jsonl']);
});

test("in this project: a core module's change reaches its own test and not an unrelated one", async () => {
  const root = join(import.meta.dirname, '..');
  const tests = ['src/core/fnv-hash.test.ts', 'src/capture/snapshot-script.test.ts'];
  assert.deepEqual(await reached(root, tests, ['src/core/fnv-hash.ts']), [
    'src/core/fnv-hash.test.ts',
  ]);
});
