import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { claudeAgent, geminiAgent } from '../../../test/helpers/agents.ts';
import {
  noteCallEnded,
  noteCallStarted,
  readCallsStarted,
} from '../../store/cache/calls-started.ts';
import { createCheckpoint } from '../checkpoint/create-checkpoint.ts';
import { withStore } from '../open-store.ts';
import { renderRestoreFor } from '../restore/render-restore.ts';
import { checkpointFromLiveTranscript } from '../restore/restore-session.ts';
import { withCallsStarted } from './calls-started.ts';
import { loadSessionState } from './read-session.ts';

const SESSION = 'gem-started-1';
const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

let root: string;
let home: string;
let project: string;
beforeEach(() => {
  root = makeTempDir('shim-started-');
  home = join(root, 'shim');
  project = join(root, 'project');
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const shell = (id: string, command: string, output: string, s: number) => ({
  id,
  name: 'run_shell_command',
  args: { command },
  status: 'success',
  result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }],
  timestamp: iso(s),
});

/** A chat as Gemini CLI writes it: a request, then a response whose two commands completed. */
function writeChat(extra: unknown[] = []): string {
  const path = join(root, 'session-2026-11-25T10-00-gem.jsonl');
  const lines = [
    { sessionId: SESSION, projectHash: 'abc', startTime: iso(0), kind: 'main' },
    { id: 'u1', timestamp: iso(1), type: 'user', content: [{ text: 'Build the KOALA-7 parser' }] },
    {
      id: 'm1',
      timestamp: iso(2),
      type: 'gemini',
      content: '',
      tokens: { input: 9000, output: 10, cached: 0, thoughts: 0, tool: 0, total: 9010 },
      model: 'gemini-2.5-pro',
      toolCalls: [
        shell('c1', 'ls no-such-KOALA-dir', 'Output: ls: cannot access\nExit Code: 2', 3),
        shell('c2', 'echo parsed-KOALA-7', 'Output: parsed-KOALA-7\nExit Code: 0', 4),
      ],
    },
    ...extra,
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

const noteShell = (command: string, seconds: number, key = 'k') =>
  noteCallStarted(home, SESSION, {
    tool: 'run_shell_command',
    input: { command },
    at: T0 + seconds * 1000,
    key,
  });

const store = <T>(use: Parameters<typeof withStore<T>>[1]) => withStore(home, use);

function checkpoint(path: string) {
  return createCheckpoint({
    log: { path, agent: geminiAgent },
    cwd: project,
    env: {},
    home,
    now: T0 + 60_000,
    trigger: 'crash_recovery',
    interrupted: true,
    snapshot: false,
  });
}

describe('calls the hooks saw start, for an agent whose log holds a call once it completes', () => {
  test('a command started and never ended is in flight in the checkpoint and its restore', async () => {
    const path = writeChat();
    noteCallStarted(home, SESSION, {
      tool: 'run_shell_command',
      input: { command: 'sh slow-KOALA.sh --all', description: 'the slow part' },
      at: T0 + 10_000,
      key: 'k1',
    });
    const { checkpoint: c } = await checkpoint(path);
    const op = c.toolState.pendingOperations.find((p) => p.command === 'sh slow-KOALA.sh --all');
    assert.ok(op, JSON.stringify(c.toolState.pendingOperations));
    assert.equal(op.interrupted, true);
    assert.equal(op.startedAt, iso(10));
    assert.deepEqual(
      c.toolState.commands?.map((r) => [r.command, r.status]),
      [
        ['ls no-such-KOALA-dir', 'failed'],
        ['echo parsed-KOALA-7', 'ok'],
        ['sh slow-KOALA.sh --all', 'interrupted'],
      ],
    );
    const text = renderRestoreFor(c, null, geminiAgent);
    assert.match(text, /\*\*In flight when it stopped\*\*/);
    assert.match(text, /```sh\nsh slow-KOALA\.sh --all\n```\nStarted at .*killed with the session/);
    assert.match(text, /`echo parsed-KOALA-7` → exit 0/);
    // The cached state of the chat never holds it: the chat brings the call once it completes.
    const cached = await loadSessionState(path, home, geminiAgent);
    assert.ok(!cached.pendingTools.some((p) => p.tool === 'run_shell_command'));
  });

  test('a call whose result came (its after-call hook) is not in flight', async () => {
    const path = writeChat();
    const call = { tool: 'run_shell_command', input: { command: 'npm test' }, key: 'k2' };
    noteCallStarted(home, SESSION, { ...call, at: T0 + 10_000 });
    noteCallStarted(home, SESSION, { ...call, key: 'k3', at: T0 + 11_000 });
    noteCallEnded(home, SESSION, { tool: 'run_shell_command', key: 'k3' });
    assert.deepEqual(
      readCallsStarted(home, SESSION).map((c) => c.key),
      ['k2'],
    );
    noteCallEnded(home, SESSION, call);
    assert.deepEqual(readCallsStarted(home, SESSION), []);
    const { checkpoint: c } = await checkpoint(path);
    assert.deepEqual(c.toolState.pendingOperations, []);
  });

  test('a call the chat moved past is left out: a newer request, or the same call finished since', async () => {
    const path = writeChat([
      { id: 'u2', timestamp: iso(30), type: 'user', content: [{ text: 'Carry on' }] },
    ]);
    noteShell('sh stale.sh', 10);
    // The same command as c2, noted before c2's completion was written.
    noteShell('echo parsed-KOALA-7', 35);
    const state = await loadSessionState(path, home, geminiAgent);
    assert.deepEqual(withCallsStarted(state, geminiAgent, home).added.length, 1);
    const later = writeChat([
      { id: 'u2', timestamp: iso(30), type: 'user', content: [{ text: 'Carry on' }] },
      {
        id: 'm2',
        timestamp: iso(36),
        type: 'gemini',
        content: '',
        toolCalls: [shell('c3', 'echo parsed-KOALA-7', 'Output: ok\nExit Code: 0', 40)],
      },
    ]);
    const now = await loadSessionState(later, home, geminiAgent);
    const folded = withCallsStarted(now, geminiAgent, home);
    assert.deepEqual(folded.added, []);
    assert.equal(folded.state, now, 'nothing folded: the state itself');
  });

  test('an agent whose log holds each call as it starts notes nothing and folds nothing', async () => {
    const path = writeChat();
    noteCallStarted(home, SESSION, {
      tool: 'Bash',
      input: { command: 'sleep 1' },
      at: T0 + 10_000,
      key: 'k',
    });
    const state = await loadSessionState(path, home, geminiAgent);
    assert.equal(claudeAgent.log.foldStarted, null);
    assert.deepEqual(withCallsStarted(state, claudeAgent, home).added, []);
  });

  test('a checkpoint covering every line of the chat is rebuilt when a call started after it', async () => {
    const path = writeChat();
    const { checkpoint: first } = await checkpoint(path);
    noteShell('make KOALA-all', 20);
    const live = await store((s) =>
      checkpointFromLiveTranscript({
        store: s,
        agent: geminiAgent,
        home,
        env: {},
        now: T0 + 90_000,
        transcriptPath: path,
        latest: s.checkpoints.getById(first.id),
        trigger: 'crash_recovery',
        cwd: project,
      }),
    );
    assert.equal(live.fresh, true);
    assert.ok(
      live.checkpoint.toolState.pendingOperations.some((p) => p.command === 'make KOALA-all'),
    );
    const again = await store((s) =>
      checkpointFromLiveTranscript({
        store: s,
        agent: geminiAgent,
        home,
        env: {},
        now: T0 + 95_000,
        transcriptPath: path,
        latest: live.checkpoint,
        trigger: 'crash_recovery',
        cwd: project,
      }),
    );
    assert.equal(again.fresh, false, 'now current');
  });
});
