// test-speed: slow (shim loop killed with SIGKILL mid-iteration, again and again)
/**
 * The supervisor's own crash safety: `shim loop` is killed with SIGKILL mid-iteration and
 * `shim loop --resume` picks the run up — re-attaching to the agent that kept running, or
 * continuing its session when the agent died too — without losing an event.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { LoopRepository } from '../../src/store/loop/loop-repository.ts';
import { getEventsPath } from '../../src/store/loop/loop-event-log.ts';
import { readRunEvents } from '../../src/store/loop/loop-event-reader.ts';
import { isProcessAlive } from '../../src/capture/process-tree.ts';
import { BIN } from '../helpers/cli.ts';
import { createLoopWorld, done, respond, FAKE_CLAUDE, type LoopWorld } from './loop-harness.ts';

function startShim(world: LoopWorld, args: string[]): ChildProcess {
  return spawn(process.execPath, [BIN, 'loop', ...args], {
    cwd: world.project,
    env: world.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function runShim(world: LoopWorld, args: string[]) {
  return spawnSync(process.execPath, [BIN, 'loop', ...args], {
    cwd: world.project,
    env: world.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

async function waitFor<T>(
  check: () => T | null | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function latestRun(world: LoopWorld) {
  const db = world.openDb();
  try {
    const repo = new LoopRepository(db);
    const run = repo.latestRun({});
    return run
      ? { run, iterations: repo.getIterations(run.runId), indexed: repo.listEvents(run.runId, {}) }
      : null;
  } finally {
    db.close();
  }
}

function assertNothingLost(world: LoopWorld, runId: string, indexed: Array<{ seq: number }>): void {
  const events = readRunEvents(world.home, runId);
  assert.deepEqual(
    events.map((e) => e.seq),
    events.map((_, i) => i + 1),
    'events.jsonl seqs are 1..N without gaps',
  );
  assert.deepEqual(
    indexed.map((e) => e.seq),
    events.map((e) => e.seq),
    'every event is indexed in SQLite',
  );
}

describe('shim loop survives kill -9 of the supervisor', () => {
  let world: LoopWorld;
  before(() => {
    world = createLoopWorld();
  });
  after(() => world.cleanup());

  const goal = ['--goal', 'Write the report.', '--claude-bin', FAKE_CLAUDE];

  test('the agent keeps running; --resume re-attaches and reads the rest of its output', async () => {
    world.script([
      {
        actions: [
          respond(20_000, { text: 'Starting the report.' }),
          { sleep: 1_500 },
          { write: { path: 'report.md', content: '# Report\n' } },
          done(),
        ],
      },
    ]);
    const shim = startShim(world, goal);
    const first = await waitFor(() => {
      const state = latestRun(world);
      return state?.run.sessionId && state.iterations[0]?.agentPid ? state : null;
    });
    shim.kill('SIGKILL');
    await new Promise((resolve) => shim.once('exit', resolve));
    const agentPid = first.iterations[0]!.agentPid!;
    assert.ok(isProcessAlive(agentPid), 'the agent outlives its supervisor');

    const resumed = runShim(world, ['--resume']);
    assert.equal(resumed.status, 0, resumed.stderr);
    const state = latestRun(world)!;
    assert.equal(state.run.status, 'completed');
    assert.equal(state.iterations.length, 1, 'no second agent was needed');
    assert.equal(world.invocations().length, 1);
    assert.equal(state.iterations[0]!.outcome, 'finished');
    assert.ok(existsSync(getEventsPath(world.home, state.run.runId)));
    const names = readRunEvents(world.home, state.run.runId).map((e) => e.name);
    assert.ok(names.includes('loop.resumed'));
    assert.ok(names.includes('loop.completed'));
    // Events the agent produced while nobody watched were read after the restart, not dropped.
    assert.ok(names.filter((n) => n === 'loop.context_usage').length >= 3, names.join(', '));
    assertNothingLost(world, state.run.runId, state.indexed);
  });

  test('when the agent died too, --resume continues its session', async () => {
    world.script([
      { actions: [respond(20_000, { text: 'Working.' }), { hang: {} }] },
      { actions: [done()] },
    ]);
    const shim = startShim(world, goal);
    const first = await waitFor(() => {
      const state = latestRun(world);
      return state?.run.runId &&
        state.run.sessionId &&
        state.run.status === 'running' &&
        state.iterations[0]?.responses
        ? state
        : null;
    });
    shim.kill('SIGKILL');
    await new Promise((resolve) => shim.once('exit', resolve));
    const agentPid = first.iterations[0]!.agentPid!;
    process.kill(-agentPid, 'SIGKILL');
    await waitFor(() => !isProcessAlive(agentPid));

    const status = runShim(world, ['status', '--json']);
    assert.equal(
      (JSON.parse(status.stdout) as { run: { liveStatus: string } }).run.liveStatus,
      'orphaned',
    );

    const resumed = runShim(world, ['--resume', first.run.runId.slice(0, 6)]);
    assert.equal(resumed.status, 0, resumed.stderr);
    const state = latestRun(world)!;
    assert.equal(state.run.status, 'completed');
    assert.deepEqual(
      state.iterations.map((i) => i.outcome),
      ['orphaned', 'finished'],
    );
    const calls = world.invocations();
    assert.equal(calls.length, 2);
    assert.equal(calls[1]!.resume, calls[0]!.sessionId, 'the same session goes on');
    assert.equal(state.run.restarts, 0);
    assertNothingLost(world, state.run.runId, state.indexed);
  });

  test('events logged past the last saved offset are not repeated after --resume', async () => {
    world.script([
      {
        actions: [
          // One message, two lines (text, then tool_use): only the first line updates the offset.
          respond(20_000, {
            text: 'Listing.',
            tool: { name: 'Bash', input: { command: 'ls -la' }, result: 'x' },
          }),
          { sleep: 1_500 },
          done(),
        ],
      },
    ]);
    const shim = startShim(world, goal);
    const runId = await waitFor(() => {
      const state = latestRun(world);
      if (!state || state.run.status !== 'running') return null;
      const names = readRunEvents(world.home, state.run.runId).map((e) => e.name);
      return names.includes('loop.tool_call') ? state.run.runId : null;
    });
    shim.kill('SIGKILL');
    await new Promise((resolve) => shim.once('exit', resolve));
    const resumed = runShim(world, ['--resume', runId]);
    assert.equal(resumed.status, 0, resumed.stderr);
    const events = readRunEvents(world.home, runId);
    assert.equal(events.filter((e) => e.name === 'loop.tool_call').length, 1, 'the tool call once');
    assert.equal(events.filter((e) => e.name === 'loop.completed').length, 1);
  });

  test('Ctrl-C stops the agent, leaves the run resumable, and --resume finishes it', async () => {
    world.script([
      { actions: [respond(20_000, { text: 'Working.' }), { hang: {} }] },
      { actions: [done()] },
    ]);
    const shim = startShim(world, goal);
    const first = await waitFor(() => {
      const state = latestRun(world);
      return state?.run.status === 'running' && state.iterations[0]?.responses ? state : null;
    });
    shim.kill('SIGINT');
    const code = await new Promise((resolve) => shim.once('exit', resolve));
    assert.equal(code, 130);
    const agentPid = first.iterations[0]!.agentPid!;
    assert.equal(isProcessAlive(agentPid), false, 'the agent was stopped with the supervisor');
    assert.equal(latestRun(world)!.run.status, 'interrupted');

    const resumed = runShim(world, ['--resume']);
    assert.equal(resumed.status, 0, resumed.stderr);
    const state = latestRun(world)!;
    assert.equal(state.run.status, 'completed');
    assert.equal(world.invocations()[1]!.resume, world.invocations()[0]!.sessionId);
    assertNothingLost(world, state.run.runId, state.indexed);
  });

  test('logs --follow prints events as they happen and ends with the run', async () => {
    world.script([
      {
        actions: [respond(20_000, { text: 'One.' }), { sleep: 800 }, done()],
      },
    ]);
    const shim = startShim(world, goal);
    const shimExit = new Promise((resolve) => shim.once('exit', resolve));
    const runId = await waitFor(
      () => latestRun(world)?.run.status === 'running' && latestRun(world)!.run.runId,
    );
    const follower = spawn(process.execPath, [BIN, 'loop', 'logs', runId, '--follow'], {
      cwd: world.project,
      env: world.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    follower.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const code = await new Promise((resolve) => follower.once('exit', resolve));
    await shimExit;
    assert.equal(code, 0);
    assert.match(out, /started: Write the report/);
    assert.match(out, /completed: the agent reported completion/);
  });

  test('a torn last event line (killed mid-write) is cut and the run goes on', async () => {
    world.script([{ actions: [done()] }]);
    const shim = startShim(world, goal);
    await new Promise((resolve) => shim.once('exit', resolve));
    const state = latestRun(world)!;
    assert.equal(state.run.status, 'completed');
    const { appendFileSync } = await import('node:fs');
    appendFileSync(getEventsPath(world.home, state.run.runId), '{"seq":999,"at":"2026-');
    const logs = runShim(world, ['logs', state.run.runId]);
    assert.equal(logs.status, 0, logs.stderr);
    assert.match(logs.stdout, /completed/);
  });
});
