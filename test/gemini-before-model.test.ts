/**
 * `shim gemini-hook BeforeModel` through the real binary: Gemini CLI escapes every hook's text
 * (`<` → `&lt;`, `>` → `&gt;`), and this hook hands back the request's messages with shim's
 * restore unescaped; any other request gets no answer, from the hook's own small bundle.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';

const RESTORE =
  '# The session was interrupted (shim checkpoint #2)\n\n```diff\n+if (a > b) return <Token/>;\n```';
const escaped = (text: string) => text.replace(/</g, '&lt;').replace(/>/g, '&gt;');

function payload(first: string): string {
  return JSON.stringify({
    session_id: 'before-model-1',
    transcript_path: '/nonexistent/chat.jsonl',
    cwd: '/tmp',
    hook_event_name: 'BeforeModel',
    timestamp: '2026-11-29T07:00:00.000Z',
    llm_request: {
      model: 'gemini-2.5-pro',
      messages: [
        { role: 'user', content: `${first}\n\nCarry on` },
        { role: 'model', content: 'On it: a &gt; b.' },
      ],
      config: { temperature: 1 },
    },
  });
}

test("BeforeModel hands back shim's restore unescaped, and only the messages up to it", () => {
  const home = makeTempDir('shim-before-model-');
  const run = runShim(home, ['gemini-hook', 'BeforeModel'], {
    input: payload(`<hook_context>${escaped(RESTORE)}</hook_context>`),
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  const answer = JSON.parse(run.stdout) as {
    hookSpecificOutput: { hookEventName: string; llm_request: { messages: unknown[] } };
  };
  assert.equal(answer.hookSpecificOutput.hookEventName, 'BeforeModel');
  assert.deepEqual(answer.hookSpecificOutput.llm_request, {
    messages: [{ role: 'user', content: `<hook_context>${RESTORE}</hook_context>\n\nCarry on` }],
  });
  // Its own bundle only: no hook runner, no agent bundle, nothing else written.
  assert.deepEqual(
    readdirSync(join(home, 'cache', 'v8')).map((f) => f.replace(/\.cjs-.*/, '')),
    ['gemini-before-model'],
  );
  assert.ok(!existsSync(join(home, 'logs')), 'no log entry for a call that went well');
});

test('a request without a restore of shim’s, or one shim cannot read: exit 0, no answer', () => {
  const home = makeTempDir('shim-before-model-');
  for (const input of [
    payload('Write the lexer'),
    payload('<hook_context>lint: a &gt; b</hook_context>'),
    '{"llm_request": (shim checkpoint #1) &gt;',
    '',
  ]) {
    const run = runShim(home, ['gemini-hook', 'BeforeModel'], { input });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '', input);
  }
});
