/**
 * "Just one more task" end to end: `shim defer` on a session, then the real hooks (the built
 * bin) as Claude Code runs them: the L1 notice waits while the task is in progress and comes,
 * once, with the call that completes it; the statusline says so meanwhile.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';
import {
  SESSION_ID,
  toJsonl,
  toolCallLines,
  twoTodos,
  userPromptLine,
} from './helpers/transcript-builders.ts';

test('shim defer holds the L1 notice until the task in progress is completed', async (t) => {
  const home = makeTempDir('shim-defer-');
  const transcript = join(home, `${SESSION_ID}.jsonl`);
  t.after(() => waitForProcessesUnder(home));
  const env = { SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') };
  writeFileSync(
    transcript,
    toJsonl([
      userPromptLine('Parse the input, then write the tests.'),
      ...toolCallLines(1, 30_000, 'TodoWrite', twoTodos('in_progress', 'pending')),
    ]),
  );
  const hook = (tool: string) => {
    const r = spawnSync(process.execPath, [BIN, 'hook', 'PostToolUse'], {
      input: JSON.stringify({
        session_id: SESSION_ID,
        transcript_path: transcript,
        cwd: home,
        hook_event_name: 'PostToolUse',
        tool_name: tool,
      }),
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim() ? (JSON.parse(r.stdout) as { systemMessage?: string }) : null;
  };
  const statusline = () =>
    spawnSync(process.execPath, [BIN, 'statusline'], {
      input: JSON.stringify({ session_id: SESSION_ID, transcript_path: transcript, cwd: home }),
      encoding: 'utf8',
      env: { ...process.env, ...env, NO_COLOR: '1', COLUMNS: '200' },
    }).stdout;

  const deferred = runShim(home, ['defer', transcript, '--json'], { env });
  assert.equal(deferred.status, 0, deferred.stderr);
  const result = JSON.parse(deferred.stdout) as {
    sessionId: string;
    until: string;
    deferral: { task: { content: string } };
  };
  assert.equal(result.sessionId, SESSION_ID);
  assert.equal(result.deferral.task.content, 'Parse the input');
  assert.match(result.until, /until "Parse the input" is done/);

  // The context reaches L1 (120k of Claude Code's 167k threshold) while the task goes on.
  appendFileSync(transcript, toJsonl(toolCallLines(2, 125_000, 'Read', { file_path: '/a.ts' })));
  const held = hook('Read');
  assert.doesNotMatch(held?.systemMessage ?? '', /\(L1\)/, 'no L1 notice while deferred');
  assert.match(statusline(), /L1\].*\[notices held\]/);

  // The task is completed: the notice held back comes now, once.
  appendFileSync(
    transcript,
    toJsonl(toolCallLines(3, 126_000, 'TodoWrite', twoTodos('completed', 'in_progress'))),
  );
  const given = hook('TodoWrite');
  assert.match(given?.systemMessage ?? '', /"Parse the input" is done/);
  assert.match(given?.systemMessage ?? '', /\(L1\)/);
  assert.equal(existsSync(join(home, 'cache', 'hooks', `${SESSION_ID}.defer.json`)), false);
  assert.match(statusline(), /\[\/defer: one more task\]/, 'the hint is back');
  appendFileSync(transcript, toJsonl(toolCallLines(4, 127_000, 'Read', { file_path: '/b.ts' })));
  assert.doesNotMatch(hook('Read')?.systemMessage ?? '', /\(L1\)/, 'given once');

  const off = runShim(home, ['defer', transcript, '--off'], { env });
  assert.equal(off.status, 0, off.stderr);
  assert.match(off.stdout, /nothing was deferred/);
  const bad = runShim(home, ['slash', 'defer', '--later'], { env });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /\/defer does not take "--later"/);
});
