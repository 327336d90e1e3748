import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { summarizeInput } from './tool-input-summary.ts';
import { keptToolResult, secretFileInCommand, secretFileShown } from './secret-file-read.ts';

/** A tool's input as the folds keep it. */
const args = (input: unknown) => summarizeInput(input, 500);

// Made-up file content: a secret file is kept whole as a stand-in, whatever it holds.
const DOTENV = 'MODE=prod\nWEATHER_SERVICE=abc\nDEPLOY_TARGET=eu-1\n';

describe('a tool call that shows a secret file', () => {
  const shown: Array<[name: string, input: unknown]> = [
    ["Claude Code's Read", { file_path: '/srv/app/.env' }],
    ['an editor view', { command: 'view', path: '/srv/app/.env' }],
    ["Gemini CLI's read_file", { absolute_path: '/srv/app/.env' }],
    ['read_many_files', { paths: ['README.md', '/srv/app/.env'] }],
    ['cat', { command: 'cat .env' }],
    ['type (Windows)', { command: 'type .env' }],
    ['less', { command: 'less /home/ada/.netrc' }],
    ['head', { command: 'head -n 20 ~/.aws/credentials' }],
    ['tail', { command: 'tail -5 .env.production' }],
    ['a pipeline', { command: 'cd /srv/app && cat .env | grep -v ^#' }],
    ['sudo cat', { command: 'sudo cat /etc/shadow' }],
    ['git diff of it', { command: 'git diff HEAD~1 -- config/master.key' }],
    ['diff', { command: 'diff .env .env.example' }],
    ["Codex's argv", { command: ['bash', '-lc', 'sed -n 1,40p ~/.pgpass'] }],
    ['an edit of it', { file_path: '/srv/app/.env', old_string: 'A', new_string: 'B' }],
  ];
  for (const [name, input] of shown) {
    test(name, () => {
      assert.notEqual(secretFileShown(args(input)), null, args(input));
      const kept = keptToolResult(args(input), DOTENV, 500);
      assert.match(kept, /^\[REDACTED:secret-file\] \(.+, 3 lines\)$/);
      assert.ok(!kept.includes('WEATHER_SERVICE'));
    });
  }

  const notShown: Array<[name: string, input: unknown]> = [
    ['an example file', { file_path: '/srv/app/.env.example' }],
    ['cat of an example', { command: 'cat .env.example' }],
    ['a write into it (nothing is shown)', { command: "echo 'MODE=prod' >> .env" }],
    ['loading it', { command: 'source .env && npm run deploy' }],
    ['listing it', { command: 'ls -la .env' }],
    ['git add', { command: 'git add .env.example && git commit -m env' }],
    ['another file', { file_path: '/srv/app/src/env.ts' }],
  ];
  for (const [name, input] of notShown) {
    test(`not: ${name}`, () => {
      assert.equal(secretFileShown(args(input)), null);
      assert.equal(keptToolResult(args(input), DOTENV, 500), DOTENV);
    });
  }

  test('the result is cut as before when no secret file is shown', () => {
    const long = 'x '.repeat(1000);
    assert.ok(keptToolResult(args({ file_path: 'README.md' }), long, 500).length <= 501);
  });

  test('a command that reads one among others', () => {
    assert.equal(secretFileInCommand('cat README.md; head -3 id_ed25519'), 'id_ed25519');
    assert.equal(secretFileInCommand('grep -n TOKEN --include=*.ts -r src'), null);
  });
});

describe('a tool call that writes a secret file', () => {
  test('keeps the path, not the content', () => {
    const kept = args({ file_path: '/srv/app/.env', content: DOTENV });
    assert.ok(!kept.includes('WEATHER_SERVICE'), kept);
    assert.match(kept, /"file_path":"\/srv\/app\/\.env"/);
    assert.match(kept, /"content":"\[REDACTED:secret-file\]"/);
  });

  test('an edit of an ordinary file keeps its content', () => {
    const kept = args({ file_path: '/srv/app/README.md', content: 'hello world' });
    assert.match(kept, /hello world/);
  });
});
