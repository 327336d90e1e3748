/**
 * The inner loop's slow files (scripts/test-speed.mjs): a file says it is slow in its own text,
 * `npm run test:quick` names it and leaves it to `npm test`, and nothing else is left out.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error -- a plain ES module of the build scripts, without types
import { slowReason } from '../scripts/test-speed.mjs';

const ROOT = join(import.meta.dirname, '..');
const reasonOf = slowReason as (text: string) => string | null;

test("a file's own `// test-speed: slow (why)` line marks it, with its reason", () => {
  assert.equal(
    reasonOf('// test-speed: slow (kill -9 loops)\nimport x from "y";\n'),
    'kill -9 loops',
  );
  assert.equal(reasonOf('/** doc */\n  //test-speed:slow\n'), 'marked slow');
  for (const text of [
    'import x from "y";\n',
    '// a file says `// test-speed: slow` to leave the inner loop\n',
    'const note = "// test-speed: slow (no)";\n',
    '// test-speed: slower than most\n',
  ])
    assert.equal(reasonOf(text), null, text);
});

/** What `node scripts/test.mjs <args>` prints (it runs nothing with --list). */
function list(args: string[]): string {
  const run = spawnSync(process.execPath, ['scripts/test.mjs', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

test('the inner loop names the slow files it leaves and runs every other unit and integration file', () => {
  const whole = list(['--list', 'src/', 'test/']);
  const quick = list(['--quick', '--list']);
  const listed = (out: string) =>
    new Set(out.split('\n').flatMap((line) => /^ {2,4}(\S+\.test\.ts)\b/.exec(line)?.[1] ?? []));
  const header =
    /the inner loop leaves (\d+) slow files? to `npm test`[^\n]*\n((?: {2}\S+ \([^\n]*\)\n)*)/.exec(
      quick,
    );
  assert.ok(header, quick);
  const left = [...(header[2] ?? '').matchAll(/^ {2}(\S+) \((.*)\)$/gm)].map(
    (m): [string, string] => [m[1]!, m[2]!],
  );
  assert.equal(left.length, Number(header[1]));
  assert.ok(left.length > 0);
  const quickFiles = listed(quick.slice(header[0].length));
  for (const [file, reason] of left) {
    assert.equal(reasonOf(readFileSync(join(ROOT, file), 'utf8')), reason, file);
    assert.ok(!quickFiles.has(file), `${file} is left out`);
    assert.ok(listed(whole).has(file), `${file} runs in the whole suite`);
  }
  const inner = [...listed(whole)].filter(
    (f) => !f.startsWith('test/e2e/') && !f.startsWith('test/team/') && !f.startsWith('test/ui/'),
  );
  assert.deepEqual(
    inner.filter((f) => !quickFiles.has(f)).sort(),
    left.map(([file]) => file).sort(),
    'the inner loop leaves out the slow files and nothing else',
  );
});

test('an option the runner does not know is refused, not taken for "run everything"', () => {
  const run = spawnSync(process.execPath, ['scripts/test.mjs', '--hlep'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /no option --hlep; it takes:\n.*node scripts\/test\.mjs --quick/s);
  assert.equal(run.stdout, '');
});
