import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { claudeAgent } from '../../../test/helpers/agents.ts';
import {
  assistantLine,
  SESSION_ID,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from '../../../test/helpers/transcript-builders.ts';
import { noteCallStarted } from '../../store/cache/calls-started.ts';
import { takeCommandWatch } from '../../store/cache/command-watch-lock.ts';
import { loadHookMemory, saveHookMemory } from '../../store/cache/hook-memory.ts';
import { withStore } from '../open-store.ts';
import { watchRunningCommandsOf, type CommandWatchRequest } from './running-command-watch.ts';

let root: string;
let home: string;
let transcript: string;
beforeEach(() => {
  root = makeTempDir('shim-command-watch-');
  home = join(root, 'shim');
  mkdirSync(join(root, 'project'));
  transcript = join(root, `${SESSION_ID}.jsonl`);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const bash = (id: string, command: string) =>
  assistantLine({ id: `msg_${id}`, content: [toolUseBlock(id, 'Bash', { command })] });

/** A session that ran two commands (the first failed) and is running a third. */
function writeSession(running: boolean): void {
  const lines = [
    userPromptLine('Stream the export rows'),
    bash('toolu_1', 'ls no-such-dir'),
    toolResultLine({
      toolUseId: 'toolu_1',
      content: 'ls: cannot access no-such-dir: No such file or directory',
      isError: true,
    }),
    bash('toolu_2', 'echo streamed'),
    toolResultLine({ toolUseId: 'toolu_2', content: 'streamed' }),
    bash('toolu_3', 'sh slow.sh'),
  ];
  if (!running) lines.push(toolResultLine({ toolUseId: 'toolu_3', content: 'done' }));
  writeFileSync(transcript, toJsonl(lines));
}

function request(overrides: Partial<CommandWatchRequest> = {}): CommandWatchRequest {
  return {
    agent: claudeAgent,
    transcriptPath: transcript,
    sessionId: SESSION_ID,
    cwd: join(root, 'project'),
    env: { SHIM_HOME: home, HOME: root },
    home,
    afterMs: 50,
    pollMs: 10,
    idleMs: 200,
    ...overrides,
  };
}

const newest = () =>
  withStore(home, (store) => Promise.resolve(store.checkpoints.getMostRecent(SESSION_ID)));

describe("a session's command watch shares a command still running", () => {
  test('a command running past the wait is checkpointed with the commands before it and the newest failure', async () => {
    writeSession(true);
    noteCallStarted(home, SESSION_ID, { tool: 'Bash', input: {}, at: Date.now(), key: 'k3' });
    const result = await watchRunningCommandsOf(request());
    assert.deepEqual(result, { watched: true, shared: 1 });
    const checkpoint = await newest();
    assert.ok(checkpoint);
    assert.deepEqual(
      checkpoint.toolState.pendingOperations.map((op) => op.command),
      ['sh slow.sh'],
    );
    assert.deepEqual(
      checkpoint.toolState.commands?.map((c) => c.command),
      ['ls no-such-dir', 'echo streamed', 'sh slow.sh'],
    );
    assert.match(checkpoint.toolState.lastFailure?.output ?? '', /No such file or directory/);
  });

  test('a command that ended before the wait costs nothing', async () => {
    writeSession(false);
    const result = await watchRunningCommandsOf(request());
    assert.deepEqual(result, { watched: true, shared: 0 });
    assert.equal(await newest(), null);
  });

  test('a call the log does not show yet is tried again, a few times, then left', async () => {
    writeSession(false);
    noteCallStarted(home, SESSION_ID, { tool: 'Bash', input: {}, at: Date.now(), key: 'k9' });
    const result = await watchRunningCommandsOf(request());
    assert.deepEqual(result, { watched: true, shared: 0 });
  });

  test('a call the log showed only after the tries is taken at one last look once the agent is gone', async () => {
    // The log lags its hooks (a loaded machine): the call is not in it while the watch tries.
    writeSession(false);
    const lagging = readFileSync(transcript, 'utf8').split('\n').slice(0, 5).join('\n');
    writeFileSync(transcript, `${lagging}\n`);
    saveHookMemory(home, SESSION_ID, {
      ...loadHookMemory(home, SESSION_ID),
      agentPid: process.pid,
    });
    noteCallStarted(home, SESSION_ID, { tool: 'Bash', input: {}, at: Date.now(), key: 'k3' });
    const watching = watchRunningCommandsOf(request({ idleMs: 120_000 }));
    // Its tries are over when their checkpoints are in (none holds the call).
    const checkpoints = () =>
      withStore(home, (store) =>
        Promise.resolve(store.checkpoints.listBySession(SESSION_ID).length),
      );
    while ((await checkpoints()) < 4) await new Promise((resolve) => setTimeout(resolve, 10));
    // Then the log shows it, and the agent is killed mid-command.
    writeSession(true);
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    saveHookMemory(home, SESSION_ID, { ...loadHookMemory(home, SESSION_ID), agentPid: dead });
    assert.deepEqual(await watching, { watched: true, shared: 1 });
    assert.deepEqual(
      (await newest())?.toolState.pendingOperations.map((op) => op.command),
      ['sh slow.sh'],
    );
  });

  test('one watch per session: a second one leaves at once', async () => {
    writeSession(true);
    const release = takeCommandWatch(home, SESSION_ID);
    assert.ok(release);
    try {
      assert.deepEqual(await watchRunningCommandsOf(request()), { watched: false, shared: 0 });
    } finally {
      release();
    }
    assert.deepEqual(await watchRunningCommandsOf(request()), { watched: true, shared: 0 });
  });
});
