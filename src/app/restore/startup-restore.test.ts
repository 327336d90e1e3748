import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import {
  assistantLine,
  toolResultLine,
  toolUseBlock,
  toJsonl,
  userPromptLine,
  type RawEntry,
} from '../../../test/helpers/transcript-builders.ts';
import { saveHookMemory } from '../../store/cache/hook-memory.ts';
import { EMPTY_HOOK_MEMORY } from '../../core/policy/hook-policy.ts';
import { renderRestore } from '../../core/resume/resume-prompt.ts';
import { CLAUDE_TARGET } from '../../core/resume/restore-target.test-helper.ts';
import { createCheckpoint } from '../checkpoint/create-checkpoint.ts';
import { withStore } from '../open-store.ts';
import { restoreAtStartup } from './startup-restore.ts';
import { writeHandoff } from '../write-handoff.ts';
import { logOf, testAgents } from '../../../test/helpers/agents.ts';

/** A pid no process has (above Linux's default pid_max): a dead agent. */
const DEAD_PID = 2 ** 22 - 7;
const NOW = Date.parse('2026-03-01T12:00:00.000Z');

let root: string;
let home: string;
let project: string;
beforeEach(() => {
  root = makeTempDir('shim-startup-');
  home = join(root, 'shim');
  project = join(root, 'project');
  mkdirSync(project);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Entries of session `id` run in `cwd`. */
function session(id: string, cwd: string, entries: RawEntry[]): RawEntry[] {
  return entries.map((e) => ({ ...e, sessionId: id, cwd }));
}

function writeTranscript(id: string, entries: RawEntry[]): string {
  const path = join(root, `${id}.jsonl`);
  writeFileSync(path, toJsonl(entries));
  return path;
}

const at = (minute: number) => new Date(NOW - 60 * 60_000 + minute * 60_000).toISOString();
const bash = (id: string, command: string, minute: number) =>
  assistantLine({
    id: `msg_${id}`,
    timestamp: at(minute),
    content: [toolUseBlock(id, 'Bash', { command })],
  });
const todo = (minute: number, todos: Array<{ content: string; status: string }>) =>
  assistantLine({
    id: `msg_todo_${minute}`,
    timestamp: at(minute),
    content: [toolUseBlock(`todo_${minute}`, 'TodoWrite', { todos })],
  });

function checkpoint(path: string, untilLine?: number) {
  return createCheckpoint({
    log: logOf(path),
    cwd: project,
    env: {},
    home,
    now: NOW - 30 * 60_000,
    trigger: 'tool_call_interval',
    snapshot: false,
    ...(untilLine !== undefined ? { untilLine } : {}),
  });
}

const dead = (sessionId: string) =>
  saveHookMemory(home, sessionId, { ...EMPTY_HOOK_MEMORY, agentPid: DEAD_PID });

const startup = (sessionId: string, cwd = project) =>
  withStore(home, (store) =>
    restoreAtStartup(store, { sessionId, agents: testAgents, cwd, home, env: {}, now: NOW }),
  );

describe('a session starting after an interrupted one', () => {
  test("is restored from the dead session's transcript when it holds more than the last checkpoint", async () => {
    const path = writeTranscript(
      'A',
      session('A', project, [
        userPromptLine('Build the ZEBRA-42 importer with a strict CSV parser.', {
          timestamp: at(1),
        }),
        todo(2, [{ content: 'Parse the header', status: 'in_progress' }]),
        toolResultLine({ toolUseId: 'todo_2', content: 'ok', timestamp: at(2) }),
        todo(3, [
          { content: 'Parse the header', status: 'completed' },
          { content: 'Import the rows', status: 'in_progress' },
        ]),
        toolResultLine({ toolUseId: 'todo_3', content: 'ok', timestamp: at(3) }),
        bash('t1', 'npm run test:e2e', 4),
      ]),
    );
    await checkpoint(path, 3); // stale: before the second TodoWrite and the command
    dead('A');
    const restore = await startup('B');
    assert.ok(restore);
    assert.equal(restore.kind, 'interrupted');
    assert.equal(restore.checkpoint.triggeredBy, 'crash_recovery');
    assert.equal(restore.detection.interruptionReason, 'crash');
    assert.deepEqual(
      restore.checkpoint.taskState.items.map((i) => [i.content, i.status]),
      [
        ['Parse the header', 'completed'],
        ['Import the rows', 'in_progress'],
      ],
    );
    const op = restore.checkpoint.toolState.pendingOperations[0];
    assert.equal(op?.interrupted, true);
    assert.match(op?.description ?? '', /npm run test:e2e/);
    assert.equal(await startup('C'), null, 'restored once');
  });

  test('a second crash in the restored session still carries the first session’s request and tasks', async () => {
    const a = writeTranscript(
      'A',
      session('A', project, [
        userPromptLine('Build the ZEBRA-42 importer with a strict CSV parser.', {
          timestamp: at(1),
        }),
        todo(2, [{ content: 'Import the rows', status: 'in_progress' }]),
        toolResultLine({ toolUseId: 'todo_2', content: 'ok', timestamp: at(2) }),
      ]),
    );
    await checkpoint(a);
    dead('A');
    assert.ok(await startup('B'));
    const b = writeTranscript(
      'B',
      session('B', project, [
        userPromptLine('continue', { timestamp: at(10) }),
        bash('t9', 'ls', 11),
        toolResultLine({ toolUseId: 't9', content: 'a b', timestamp: at(11) }),
      ]),
    );
    const own = await checkpoint(b);
    assert.equal(own.checkpoint.source.resumedFrom?.sessionId, 'A');
    assert.ok(own.checkpoint.source.parentId, 'the chain has a parent');
    dead('B');
    const third = await startup('C');
    assert.ok(third);
    assert.deepEqual(third.checkpoint.conversationState.userRequests, [
      'Build the ZEBRA-42 importer with a strict CSV parser.',
      'continue',
    ]);
    assert.deepEqual(
      third.checkpoint.taskState.items.map((i) => [i.content, i.status, i.inherited]),
      [['Import the rows', 'in_progress', true]],
    );
  });

  test('only sessions of the same project count', async () => {
    const other = join(root, 'other');
    mkdirSync(other);
    const path = writeTranscript(
      'A',
      session('A', other, [
        userPromptLine('Work in the other project please.', { timestamp: at(1) }),
      ]),
    );
    await checkpoint(path);
    dead('A');
    assert.equal(await startup('B'), null);
  });
});

describe('a handoff the user wrote', () => {
  test('is picked up once by the next session of the project, even after a clean end', async () => {
    const path = writeTranscript(
      'A',
      session('A', project, [
        userPromptLine('Refactor the loader next time.', { timestamp: at(1) }),
      ]),
    );
    const saved = await checkpoint(path);
    await withStore(home, async (store) => {
      store.sessions.end('A', 'claude', 'prompt_input_exit', at(30));
      await writeHandoff(store, home, {
        checkpoint: saved.checkpoint,
        kind: 'user',
        detection: null,
        now: NOW - 60_000,
      });
    });
    const restore = await startup('B');
    assert.equal(restore?.kind, 'handoff');
    assert.equal(restore?.detection.interruptionReason, 'handoff');
    assert.equal(restore?.checkpoint.id, saved.checkpoint.id);
    assert.equal(await startup('C'), null, 'once');
  });

  test('the restore records what its text carried (fidelity), as every other restore does', async () => {
    const path = writeTranscript(
      'A',
      session('A', project, [
        userPromptLine('Port the QUAIL-7 exporter to streams.', { timestamp: at(1) }),
        todo(2, [{ content: 'Stream the rows', status: 'in_progress' }]),
      ]),
    );
    const saved = await checkpoint(path);
    await withStore(home, (store) =>
      writeHandoff(store, home, {
        checkpoint: saved.checkpoint,
        kind: 'user',
        detection: null,
        now: NOW - 60_000,
      }),
    );
    const restore = await withStore(home, (store) =>
      restoreAtStartup(store, {
        sessionId: 'B',
        agents: testAgents,
        cwd: project,
        home,
        env: {},
        now: NOW,
        render: (cp, detection) =>
          renderRestore({ checkpoint: cp, detection, target: CLAUDE_TARGET }),
      }),
    );
    assert.match(restore?.text ?? '', /QUAIL-7/);
    const [event] = await withStore(home, (store) =>
      store.resumes.listForCheckpoint(saved.checkpoint.id),
    );
    assert.equal(event?.fidelityScore, 1, 'the request and the task are both in the text');
    assert.equal(event?.messagesAtRestore, 0);
  });

  test('an automatic handoff (before a compaction, at L2) is not injected into the next session', async () => {
    const path = writeTranscript(
      'A',
      session('A', project, [
        userPromptLine('Refactor the loader next time.', { timestamp: at(1) }),
      ]),
    );
    const saved = await checkpoint(path);
    await withStore(home, async (store) => {
      store.sessions.end('A', 'claude', 'prompt_input_exit', at(30));
      await writeHandoff(store, home, {
        checkpoint: saved.checkpoint,
        kind: 'level_L2',
        detection: null,
        now: NOW - 60_000,
      });
    });
    assert.equal(await startup('B'), null);
  });
});
