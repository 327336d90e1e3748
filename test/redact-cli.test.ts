/**
 * `shim redact` through the built binary: a file, standard input, --jsonl (one session, or
 * --each line alone), a secret file's stand-in and --contents, --summary, and the errors a
 * user meets (a directory, a missing file, a line that is not JSON, --each without --jsonl).
 * The values are made up at run time (src/redact/made-up.test-helper.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { B62, madeUp } from '../src/redact/made-up.test-helper.ts';

const { gen } = madeUp(3801);
const token = gen(B62, 32);
const password = gen(B62, 18);

const home = makeTempDir('shim-redact-home-');

function shim(args: string[], input?: string) {
  return runShim(home, args, input !== undefined ? { input } : {});
}

describe('shim redact', () => {
  const dir = makeTempDir('shim-redact-');

  test('a file: each secret replaced, the words kept, a value found once replaced again', () => {
    const file = join(dir, 'build.log');
    writeFileSync(
      file,
      `step 1: export API_TOKEN=${token}\nstep 2: curl -H "x: ${token}" http://localhost\ndone\n`,
    );
    const run = shim(['redact', file]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!run.stdout.includes(token), run.stdout);
    assert.match(run.stdout, /^step 1: export API_TOKEN=\[REDACTED:[\w-]+\]\n/);
    // The second place says nothing about what the value is: the memory of the first finds it.
    assert.match(
      run.stdout,
      /step 2: curl -H "x: \[REDACTED:[\w-]+\]" http:\/\/localhost\ndone\n$/,
    );
  });

  test('standard input, with --summary on standard error', () => {
    const run = shim(['redact', '--summary'], `postgres://app:${password}@db.internal/app\n`);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!run.stdout.includes(password), run.stdout);
    assert.match(run.stdout, /^postgres:\/\/app:\[REDACTED:[\w-]+\]@db\.internal\/app\n$/);
    assert.match(run.stderr, /^shim redact: 1 replaced \([\w-]+ 1\)\n$/);
  });

  test('text without secrets comes out unchanged', () => {
    const text = 'npm test passed: 42 tests, key files: src/index.ts\n';
    const run = shim(['redact', '--summary'], text);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, text);
    assert.equal(run.stderr, 'shim redact: no secret found\n');
  });

  test('--jsonl: lines are one session unless --each', () => {
    const lines = [
      JSON.stringify(`export VAULT_TOKEN=${token}`),
      '',
      JSON.stringify({ note: `pasted ${token} here` }),
    ].join('\n');
    const together = shim(['redact', '--jsonl'], `${lines}\n`);
    assert.equal(together.status, 0, together.stderr);
    const out = together.stdout.split('\n');
    assert.equal(out.length, 4);
    assert.match(JSON.parse(out[0]!) as string, /^export VAULT_TOKEN=\[REDACTED:[\w-]+\]$/);
    assert.equal(out[1], '');
    assert.match(
      (JSON.parse(out[2]!) as { note: string }).note,
      /^pasted \[REDACTED:[\w-]+\] here$/,
    );
    // Alone, the third line does not say what the value is.
    const each = shim(['redact', '--jsonl', '--each'], `${lines}\n`);
    assert.equal(each.status, 0, each.stderr);
    assert.equal(
      (JSON.parse(each.stdout.split('\n')[2]!) as { note: string }).note,
      `pasted ${token} here`,
    );
  });

  test('a secret file: its stand-in, or --contents with each secret replaced', () => {
    const project = join(dir, 'project');
    mkdirSync(project, { recursive: true });
    const env = join(project, '.env');
    writeFileSync(env, `DATABASE_PASSWORD=${password}\nDEBUG=true\n`);
    const standIn = shim(['redact', env]);
    assert.equal(standIn.status, 0, standIn.stderr);
    assert.ok(!standIn.stdout.includes(password));
    assert.ok(!standIn.stdout.includes('DEBUG'), 'the stand-in holds none of the file');
    assert.match(standIn.stderr, /is a secret file/);
    const contents = shim(['redact', '--contents', env]);
    assert.equal(contents.status, 0, contents.stderr);
    assert.match(contents.stdout, /^DATABASE_PASSWORD=\[REDACTED:[\w-]+\]\nDEBUG=true\n$/);
  });

  test('bad input: what happened and how to fix it, exit 1, nothing on stdout', () => {
    const cases: Array<[string[], string | undefined, RegExp]> = [
      [['redact', dir], undefined, /is a directory/],
      [['redact', join(dir, 'missing.log')], undefined, /cannot read .*missing\.log: ENOENT/],
      [['redact', '--jsonl'], 'not json\n', /line 1 of standard input is not JSON/],
      [['redact', '--each'], 'x\n', /--each goes with --jsonl/],
    ];
    for (const [args, input, message] of cases) {
      const run = shim(args, input);
      assert.equal(run.status, 1, args.join(' '));
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    }
  });
});
