/**
 * Issue 42 item 4: a test run Claude Code started in the background (`run_in_background`) counts
 * as passing only once its notification says it passed — not in the restore, not in the handoff,
 * not as a "tests pass again" milestone when the call that started it returns.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { writeCountTiming } from './helpers/count-timing.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { spawnSync } from 'node:child_process';
import {
  SESSION_ID,
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
  type RawEntry,
} from './helpers/transcript-builders.ts';

const at = (second: number) =>
  `2026-02-12T20:3${Math.floor(second / 60)}:${String(second % 60).padStart(2, '0')}.000Z`;

function call(id: string, second: number, name: string, input: unknown): RawEntry {
  return assistantLine({
    id: `msg_${id}`,
    timestamp: at(second),
    content: [toolUseBlock(id, name, input)],
  });
}

/** A failing test run, an edit, then the same test run started in the background. */
const SESSION: RawEntry[] = [
  userPromptLine('make the parser tests pass', { timestamp: at(0) }),
  call('toolu_test1', 2, 'Bash', { command: 'npm test', description: 'Run the tests' }),
  toolResultLine({
    toolUseId: 'toolu_test1',
    timestamp: at(4),
    isError: true,
    content: 'Exit code 1\nFAIL src/parser.test.ts\n  expected 3, got 2',
  }),
  call('toolu_edit', 6, 'Edit', {
    file_path: '/home/user/project/src/parser.ts',
    old_string: 'a',
    new_string: 'b',
  }),
  toolResultLine({
    toolUseId: 'toolu_edit',
    timestamp: at(7),
    content: 'The file has been updated.',
  }),
  call('toolu_test2', 9, 'Bash', {
    command: 'npm test',
    description: 'Run the tests in the background',
    run_in_background: true,
  }),
  toolResultLine({
    toolUseId: 'toolu_test2',
    timestamp: at(10),
    isError: false,
    content:
      'Command running in background with ID: b2ed671. Output is being written to: /tmp/claude-1000/tasks/b2ed671.output',
    toolUseResult: {
      stdout: '',
      stderr: '',
      interrupted: false,
      isImage: false,
      backgroundTaskId: 'b2ed671',
    },
  }),
];

function notification(status: string, summary: string, second: number): RawEntry {
  return userPromptLine(
    `<task-notification>\n<task-id>b2ed671</task-id>\n<output-file>/tmp/claude-1000/tasks/b2ed671.output</output-file>\n<status>${status}</status>\n<summary>Background command "Run the tests in the background" ${summary}</summary>\n</task-notification>\nRead the output file to retrieve the result: /tmp/claude-1000/tasks/b2ed671.output`,
    { timestamp: at(second) },
  );
}

type Setup = { home: string; transcript: string; cwd: string };

function setup(): Setup {
  const dir = makeTempDir('shim-bg-test-');
  const home = join(dir, 'shim');
  writeCountTiming(home);
  // The hooks look themselves: no warm process outlives the test.
  const config = join(home, 'config.json');
  const counted = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
  writeFileSync(config, `${JSON.stringify({ ...counted, warmLook: false })}\n`);
  return { home, transcript: join(dir, 'session.jsonl'), cwd: dir };
}

function postToolUse(s: Setup, toolName: string, toolInput: unknown): void {
  const r = spawnSync(process.execPath, [BIN, 'hook', 'PostToolUse'], {
    input: JSON.stringify({
      session_id: SESSION_ID,
      transcript_path: s.transcript,
      cwd: s.cwd,
      hook_event_name: 'PostToolUse',
      tool_name: toolName,
      tool_input: toolInput,
    }),
    encoding: 'utf8',
    env: { ...process.env, SHIM_HOME: s.home, CLAUDE_CONFIG_DIR: join(s.home, 'no-claude') },
  });
  assert.equal(r.status, 0, r.stderr);
}

function checkpointAndShow(s: Setup): { restore: string; handoff: string } {
  const made = runShim(s.home, ['checkpoint', '--transcript', s.transcript, '--json'], {
    cwd: s.cwd,
  });
  assert.equal(made.status, 0, made.stderr);
  const id = (JSON.parse(made.stdout) as { checkpointId: string }).checkpointId;
  const restore = runShim(s.home, ['show', '--all', id]);
  assert.equal(restore.status, 0, restore.stderr);
  const handoff = runShim(s.home, ['show', '--all', '--handoff', id]);
  assert.equal(handoff.status, 0, handoff.stderr);
  return { restore: restore.stdout, handoff: handoff.stdout };
}

test('a background test run that has only started is no passing run and no milestone; its notification says how it ended', () => {
  const s = setup();
  // The hooks see each call return, as Claude Code runs them.
  writeFileSync(s.transcript, toJsonl(SESSION.slice(0, 3)));
  postToolUse(s, 'Bash', { command: 'npm test' });
  appendFileSync(s.transcript, toJsonl(SESSION.slice(3, 5)));
  postToolUse(s, 'Edit', { file_path: '/home/user/project/src/parser.ts' });
  appendFileSync(s.transcript, toJsonl(SESSION.slice(5)));
  postToolUse(s, 'Bash', { command: 'npm test', run_in_background: true });
  const list = runShim(s.home, ['list', '--all', '--json']);
  assert.equal(list.status, 0, list.stderr);
  const triggers = (JSON.parse(list.stdout) as Array<{ triggeredBy: string }>).map(
    (c) => c.triggeredBy,
  );
  assert.ok(
    !triggers.includes('milestone'),
    `no "tests pass again" checkpoint: ${triggers.join(', ')}`,
  );

  const started = checkpointAndShow(s);
  for (const text of [started.restore, started.handoff]) {
    assert.doesNotMatch(text, /`npm test`: passing/, text);
    assert.match(text, /`npm test`: \*\*failing\*\*/, 'the last run that ended failed');
  }
  assert.match(started.restore, /background shell: npm test/, 'the run is still going');

  appendFileSync(s.transcript, toJsonl([notification('completed', 'completed (exit code 0)', 30)]));
  const passed = checkpointAndShow(s);
  assert.match(passed.restore, /last test run `npm test`: passing/);
  assert.doesNotMatch(passed.restore, /background shell: npm test/, 'the run has ended');
});

test('a background test run whose notification says it failed is failing', () => {
  const s = setup();
  writeFileSync(
    s.transcript,
    toJsonl([
      ...SESSION.slice(0, 1),
      ...SESSION.slice(5),
      notification('failed', 'failed with exit code 2', 30),
    ]),
  );
  const { restore } = checkpointAndShow(s);
  assert.match(restore, /last test run `npm test`: \*\*failing\*\*/);
});
