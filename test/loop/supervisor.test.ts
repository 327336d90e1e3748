/**
 * The loop supervisor against test/loop/fake-claude.mjs, which prints the real CLI's stream-json
 * shapes: restart at the threshold, continuing a session, completion confirmed by tests, stuck
 * detection, usage-limit waits, hangs (the whole process group is killed) and crashes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createStore } from '../../src/app/open-store.ts';
import { LoopRepository } from '../../src/store/loop/loop-repository.ts';
import { readRunEvents } from '../../src/store/loop/loop-event-reader.ts';
import { startLoop, type LoopResult } from '../../src/loop/start-loop.ts';
import { LOOP_SUMMARY_MAX_CHARS } from '../../src/core/loop/loop-summary.ts';
import { isProcessAlive } from '../../src/capture/process-tree.ts';
import { bash, createLoopWorld, done, respond, type LoopWorld } from './loop-harness.ts';
import type { LoopOptions } from '../../src/loop/options.ts';
import { testAgents } from '../helpers/agents.ts';

async function run(world: LoopWorld, overrides: Partial<LoopOptions> = {}): Promise<LoopResult> {
  const db = world.openDb();
  try {
    return await startLoop(world.options(overrides), {
      agents: testAgents,
      store: createStore(db),
      home: world.home,
      cwd: world.project,
      env: world.env,
    });
  } finally {
    db.close();
  }
}

const names = (world: LoopWorld, runId: string): string[] =>
  readRunEvents(world.home, runId).map((e) => e.name);

describe('shim loop supervisor (fake agent, real stream-json shapes)', () => {
  let world: LoopWorld;
  before(() => {
    world = createLoopWorld();
  });
  after(() => world.cleanup());

  test('crossing the threshold ends the iteration at a safe point, checkpoints, and restarts fresh with the summary', async () => {
    world.script([
      {
        actions: [
          bash(40_000, 'ls'),
          { write: { path: 'notes.md', content: 'half done\n' } },
          bash(90_000, 'npm test'),
          // Crosses 70% of 167k (116,900): the tool result after it is the safe point.
          bash(125_000, 'echo more'),
          { hang: {} },
        ],
      },
      { actions: [{ write: { path: 'done.txt', content: 'ok\n' } }, done()] },
    ]);
    const result = await run(world);
    assert.equal(result.run.status, 'completed', result.run.stopReason ?? '');
    assert.equal(result.exitCode, 0);
    assert.equal(result.run.restarts, 1);
    const [first, second] = result.iterations;
    assert.equal(first?.outcome, 'context_threshold');
    assert.ok(first.peakPercent! >= 70 && first.peakPercent! < 80, String(first.peakPercent));
    assert.equal(second?.mode, 'fresh');
    assert.ok(first.checkpointId, 'the session was checkpointed before the restart');

    const calls = world.invocations();
    assert.equal(calls.length, 2);
    assert.equal(calls[1]!.resume, null, 'a fresh session, not --resume');
    const prompt = calls[1]!.prompt;
    assert.match(prompt, /## Previous Session Context \(Summarized\)/);
    assert.ok(prompt.indexOf('Previous Session Context') < prompt.indexOf('Create done.txt'));
    assert.match(prompt, /notes\.md/, 'the summary lists the files changed since the loop began');

    const events = names(world, result.run.runId);
    for (const name of [
      'loop.started',
      'loop.context_usage',
      'loop.context_exhaustion_warning',
      'loop.checkpoint',
      'loop.summary_written',
      'loop.context_exhaustion_restart',
      'loop.completed',
    ]) {
      assert.ok(events.includes(name), `${name} in ${events.join(', ')}`);
    }
    const summary = readRunEvents(world.home, result.run.runId).find(
      (e) => e.name === 'loop.summary_written',
    );
    const text = String((summary?.data as { summary?: string }).summary);
    assert.ok(text.length <= LOOP_SUMMARY_MAX_CHARS, `${text.length} chars`);
    assert.ok(existsSync(join(world.project, 'done.txt')));
  });

  test('below the threshold the next iteration continues the same session', async () => {
    world.script([
      { actions: [respond(20_000, { text: 'Started; more to do.' })] },
      { actions: [done()] },
    ]);
    const result = await run(world);
    assert.equal(result.run.status, 'completed');
    const calls = world.invocations();
    assert.equal(calls.length, 2);
    assert.equal(calls[1]!.resume, calls[0]!.sessionId, 'claude --resume <same session>');
    assert.equal(result.iterations[1]!.mode, 'continue');
    assert.equal(result.run.restarts, 0);
  });

  test('a completion claim made while background work still runs is not a completion', async () => {
    world.script([
      {
        actions: [bash(20_000, 'npm run build &'), { background: ['slow build'] }, done()],
      },
      { actions: [{ background: [] }, done()] },
    ]);
    const result = await run(world);
    assert.equal(result.run.status, 'completed');
    assert.equal(result.iterations[0]!.outcome, 'mid_work');
    assert.equal(result.iterations[1]!.outcome, 'finished');
    const calls = world.invocations();
    assert.equal(calls.length, 2);
    assert.equal(calls[1]!.resume, calls[0]!.sessionId, 'the same session goes on');
    assert.match(
      calls[1]!.prompt,
      /background work you started was still running \(local_bash "slow build"\)/,
    );
    const events = readRunEvents(world.home, result.run.runId);
    const midWork = events.find((e) => e.name === 'loop.mid_work');
    assert.deepEqual((midWork?.data as { markerSeen?: boolean }).markerSeen, true);
    const claims = events.filter((e) => e.name === 'loop.completion_claimed');
    assert.deepEqual(
      claims.map((e) => e.iteration),
      [2],
      'only the turn with nothing pending claims completion',
    );
  });

  test('a completion claim counts only when the test command passes', async () => {
    world.script([
      { actions: [done()] },
      { actions: [{ write: { path: 'tested.txt', content: 'ok\n' } }, done()] },
    ]);
    const result = await run(world, { testCommand: 'test -f tested.txt && grep -q ok tested.txt' });
    assert.equal(result.run.status, 'completed');
    assert.equal(result.iterations.length, 2);
    const calls = world.invocations();
    assert.match(calls[1]!.prompt, /test command .*failed/i);
    const tests = readRunEvents(world.home, result.run.runId).filter(
      (e) => e.name === 'loop.test_run',
    );
    assert.deepEqual(
      tests.map((e) => (e.data as { passed: boolean }).passed),
      [false, true],
    );
  });

  test('the marker merely mentioned in a sentence is not completion', async () => {
    world.script([
      { actions: [respond(10_000, { text: 'I will print SHIM_LOOP_COMPLETE when it is done.' })] },
      { actions: [done()] },
    ]);
    const result = await run(world);
    assert.equal(result.iterations.length, 2);
    assert.equal(result.run.status, 'completed');
  });

  test('stuck: no file changes for K iterations restarts fresh once, then stops with the reason', async () => {
    world.script([], { actions: [respond(10_000, { text: 'Thinking about it.' })] });
    const result = await run(world, {
      stuck: { noChangeIterations: 2, sameErrorCount: 9, identicalOutputs: 9 },
    });
    assert.equal(result.run.status, 'stopped');
    assert.equal(result.exitCode, 1);
    assert.match(result.run.stopReason ?? '', /stuck/);
    const events = names(world, result.run.runId);
    assert.ok(events.includes('loop.stuck_restart'));
    assert.equal(events.filter((n) => n === 'loop.stuck_detected').length, 2);
    const fresh = world.invocations().filter((c) => c.resume === null);
    assert.equal(fresh.length, 2, 'the first session and one fresh restart');
    assert.match(fresh[1]!.prompt, /stuck|no file changes|changed nothing/i);
  });

  test('a usage limit is waited out until the reported reset, then the same session goes on', async () => {
    const resetsAt = Math.ceil(Date.now() / 1000) + 2;
    world.script([
      { actions: [respond(10_000, { text: 'working' }), { usageLimit: { resetsAt } }] },
      { actions: [done()] },
    ]);
    const started = Date.now();
    const result = await run(world);
    assert.equal(result.run.status, 'completed');
    const calls = world.invocations();
    assert.equal(calls.length, 2);
    assert.ok(Date.now() >= resetsAt * 1000, 'did not go on before the reset');
    assert.ok(Date.now() - started < 20_000);
    assert.equal(calls[1]!.resume, calls[0]!.sessionId);
    const wait = readRunEvents(world.home, result.run.runId).find(
      (e) => e.name === 'loop.usage_limit_wait',
    );
    assert.equal((wait?.data as { until: string }).until, new Date(resetsAt * 1000).toISOString());
    assert.equal(result.run.restarts, 0, 'a limit is not a restart');
  });

  test('a hung agent is stopped after the iteration timeout, with its whole process group', async () => {
    const pidFile = join(world.root, 'grandchild.pid');
    world.script([
      {
        actions: [
          respond(10_000, { text: 'starting' }),
          { spawnGrandchild: { pidFile } },
          { hang: { ignoreTerm: true } },
        ],
      },
      { actions: [done()] },
    ]);
    const result = await run(world, { iterationTimeoutMs: 1_500 });
    assert.equal(result.run.status, 'completed');
    assert.equal(result.iterations[0]!.outcome, 'timeout');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    assert.equal(isProcessAlive(grandchild), false, 'the grandchild was killed too');
    assert.equal(isProcessAlive(world.invocations()[0]!.pid), false);
    assert.ok(names(world, result.run.runId).includes('loop.agent_timeout'));
  });

  test('a crashed agent is restarted by continuing its session', async () => {
    world.script([
      {
        actions: [
          respond(10_000, { text: 'on it' }),
          { crash: { exitCode: 3, stderr: 'segfault' } },
        ],
      },
      { actions: [done()] },
    ]);
    const result = await run(world);
    assert.equal(result.run.status, 'completed');
    assert.equal(result.iterations[0]!.outcome, 'crashed');
    assert.equal(result.iterations[0]!.exitCode, 3);
    const calls = world.invocations();
    assert.equal(calls[1]!.resume, calls[0]!.sessionId);
    assert.equal(result.run.restarts, 1);
    assert.ok(names(world, result.run.runId).includes('loop.crash_restart'));
  });

  test('limits: max iterations and the budget stop the run with a clear reason', async () => {
    world.script([], {
      actions: [
        { write: { path: `f-${Math.random()}.txt`, content: 'x' } },
        respond(5_000, { text: 'more' }),
      ],
    });
    const capped = await run(world, { maxIterations: 2 });
    assert.equal(capped.run.status, 'stopped');
    assert.match(capped.run.stopReason ?? '', /max_iterations/);
    assert.equal(capped.iterations.length, 2);

    world.script([], {
      actions: [
        { write: { path: 'g.txt', content: String(Math.random()) } },
        { result: { text: 'more', costUsd: 0.6 } },
      ],
    });
    const budget = await run(world, { budgetUsd: 1 });
    assert.equal(budget.run.status, 'stopped');
    assert.match(budget.run.stopReason ?? '', /budget/);
    assert.equal(budget.iterations.length, 2);
  });

  test('secrets in tool calls and answers never reach the event log or the summary', async () => {
    // Shaped like a real one (random letters and digits): a value of repeated groups or counting
    // runs reads as typed by hand and is spared by the redactor (src/redact/value-shape.ts looksMadeUp).
    const token = 'ghp_Zq8v2LmR7tXw4Kp9Nc3Hy6Bd1Fs5Gj0Qe7Ua';
    world.script([
      {
        actions: [
          bash(60_000, `curl -H "Authorization: token ${token}" https://api.github.com`),
          respond(120_000, {
            text: `Used ${token}`,
            tool: { name: 'Bash', input: { command: 'ls' } },
          }),
          { hang: {} },
        ],
      },
      { actions: [done()] },
    ]);
    const result = await run(world);
    assert.equal(result.run.status, 'completed');
    const log = readFileSync(join(world.home, 'loops', result.run.runId, 'events.jsonl'), 'utf8');
    assert.ok(log.includes('curl'), 'the tool call is logged');
    assert.ok(!log.includes(token), 'but not the token');
    assert.ok(!world.invocations()[1]!.prompt.includes(token), 'nor the summary in the prompt');
  });

  test('run and iteration state are in the store while it runs and after', async () => {
    world.script([{ actions: [done()] }]);
    const result = await run(world);
    const db = world.openDb();
    try {
      const repo = new LoopRepository(db);
      const stored = repo.getRun(result.run.runId);
      assert.equal(stored?.status, 'completed');
      assert.equal(stored?.iteration, 1);
      assert.ok(stored?.sessionId);
      const indexed = repo.listEvents(result.run.runId, {});
      assert.deepEqual(
        indexed.map((e) => e.seq),
        readRunEvents(world.home, result.run.runId).map((e) => e.seq),
        'every event of events.jsonl is indexed',
      );
    } finally {
      db.close();
    }
    writeFileSync(join(world.root, 'unused'), '');
  });
});
