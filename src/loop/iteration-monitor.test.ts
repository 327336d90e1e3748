import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseStreamLine } from '../agents/claude/stream-json.ts';
import {
  IterationMonitor,
  pendingWorkOf,
  scheduledJobsFor,
  type MonitorSignal,
} from './iteration-monitor.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'stream-json');
const lines = (name: string): string[] =>
  readFileSync(join(FIXTURES, name), 'utf8').split('\n').filter(Boolean);

const THRESHOLD = { compactThreshold: 167_000, windowTokens: 200_000, detail: 'test' };

function feed(monitor: IterationMonitor, input: string[]): MonitorSignal[] {
  return input.flatMap((line) => monitor.accept(line));
}

describe('IterationMonitor (captured real stream-json)', () => {
  test('occupancy is the last response, counted once per message; tools are paired', () => {
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    const signals = feed(monitor, lines('tool-calls.jsonl'));
    const contexts = signals.filter((s) => s.kind === 'context');
    // Three responses; the first arrives as two lines (text, tool_use) with the same usage.
    assert.deepEqual(
      contexts.map((s) => s.kind === 'context' && s.tokens),
      [13_200, 13_230, 13_420],
    );
    assert.equal(monitor.stats.responses, 3);
    assert.equal(monitor.stats.toolCalls, 2);
    assert.equal(monitor.pendingTools, 0);
    assert.equal(monitor.stats.lastToolError, 'Exit code 1');
    assert.equal(monitor.stats.result?.costUsd, 0.03046);
    assert.ok(monitor.stats.sessionId);
    assert.equal(monitor.draining, false);
  });

  test("the seed's window rule restarts at its percent of CONTEXT_WINDOW_TOKENS", () => {
    const crossedAt = (percent: number) => {
      const monitor = new IterationMonitor(
        { thresholdPercent: 70, window: { percent, windowTokens: 20_000 } },
        () => THRESHOLD,
        null,
        parseStreamLine,
      );
      const signals = feed(monitor, lines('tool-calls.jsonl'));
      const context = signals.filter((s) => s.kind === 'context');
      return context.findIndex((s) => s.kind === 'context' && s.crossed);
    };
    // Responses at 13,200, 13,230 and 13,420 tokens: 66% of 20k is 13,200, 67% is 13,400.
    assert.equal(crossedAt(66), 0);
    assert.equal(crossedAt(67), 2);
    assert.equal(crossedAt(68), -1, 'shim’s own 70% of 167k is far above; the rule replaces it');
  });

  test('crossing the threshold is signalled once, and the next tool result is the safe point', () => {
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    const signals = feed(monitor, lines('auto-compact.jsonl'));
    const crossed = signals.filter((s) => s.kind === 'context' && s.crossed);
    assert.equal(crossed.length, 1, 'one crossing (169,900 tokens ≥ 70% of 167k)');
    const after = signals.slice(signals.indexOf(crossed[0]!));
    assert.ok(after.some((s) => s.kind === 'safe_point'));
    assert.ok(signals.some((s) => s.kind === 'compaction' && s.trigger === 'auto'));
    assert.equal(monitor.stats.compactions, 1);
  });

  test('a 429 and a usage limit are limits; a 529 is an API error only', () => {
    const limited = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    feed(limited, lines('usage-limit.jsonl'));
    assert.deepEqual(limited.stats.limit, { resetsAt: 1_795_000_000_000 });
    const rate = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    feed(rate, lines('api-error-429.jsonl'));
    assert.deepEqual(rate.stats.limit, { resetsAt: null });
    const overloaded = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    feed(overloaded, lines('api-error-529.jsonl'));
    assert.equal(overloaded.stats.limit, null);
    assert.equal(overloaded.stats.apiError?.status, 529);
  });

  test('garbage never throws and never looks like exhaustion (fail safe)', () => {
    const monitor = new IterationMonitor(
      70,
      () => ({ compactThreshold: Number.NaN, windowTokens: 0, detail: 'broken' }),
      null,
      parseStreamLine,
    );
    const garbage = [
      '',
      'not json',
      '{"type":"assistant"',
      '[1,2,3]',
      'null',
      '{"type":"assistant","message":{"id":"m1","usage":{"input_tokens":"lots"}}}',
      '{"type":"assistant","message":{"id":"m2","usage":{"input_tokens":900000}}}',
      '{"type":"user","message":{"content":[{"type":"tool_result"}]}}',
      '{"type":"result","total_cost_usd":"free"}',
    ];
    const signals = feed(monitor, garbage);
    assert.ok(signals.every((s) => s.kind !== 'context' || !s.crossed));
    assert.equal(monitor.draining, false);
  });

  test('a subagent response does not move the session context', () => {
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    const [, response] = lines('tool-calls.jsonl');
    const sidechain = JSON.parse(response!) as Record<string, unknown>;
    sidechain.parent_tool_use_id = 'toolu_parent';
    (
      sidechain.message as { id: string; usage: Record<string, number> }
    ).usage.cache_read_input_tokens = 160_000;
    const signals = monitor.accept(JSON.stringify(sidechain));
    assert.equal(signals.filter((s) => s.kind === 'context').length, 0);
    assert.equal(monitor.stats.lastContextTokens, 0);
  });

  test('a task that finishes by itself after the result is done work', () => {
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    const input = lines('background-task.jsonl');
    const firstResult = input.findIndex((l) => l.includes('"type":"result"'));
    feed(monitor, input.slice(0, firstResult + 1));
    assert.deepEqual(
      monitor.stats.backgroundTasks.map((t) => t.description),
      ['slow build'],
      'live when the first turn ended',
    );
    feed(monitor, input.slice(firstResult + 1));
    assert.deepEqual(monitor.stats.backgroundTasks, [], 'completed, then a second turn');
  });

  test('a task the CLI stops on its way out after the result is still pending work', () => {
    // The loop ended the agent after its iteration timeout: Claude Code reports the task
    // `stopped` and an empty set. The build never finished.
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    feed(monitor, lines('background-task-stopped.jsonl'));
    assert.ok(monitor.stats.result && !monitor.stats.result.isError);
    assert.deepEqual(
      monitor.stats.backgroundTasks.map((t) => [t.type, t.description]),
      [['local_bash', 'slow build']],
    );
  });

  test('a task stopped during the turn (the agent chose to) is not pending', () => {
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    const input = lines('background-task-stopped.jsonl');
    const result = input.findIndex((l) => l.includes('"type":"result"'));
    const after = input.slice(result + 1);
    // The same stop lines, before the turn's result this time.
    feed(monitor, [...input.slice(0, result), ...after, input[result]!]);
    assert.deepEqual(monitor.stats.backgroundTasks, []);
  });
});

describe('IterationMonitor: scheduled prompts (CronCreate) are pending work', () => {
  const SESSION = 'ad7651b7-d0ce-494f-9064-0c96a1c53e44';
  const call = (id: string, name: string, input: Record<string, unknown>, n: number) =>
    JSON.stringify({
      type: 'assistant',
      message: {
        id: `msg_cron_${n}`,
        role: 'assistant',
        model: 'claude-opus-4-6',
        content: [{ type: 'tool_use', id, name, input }],
        usage: { input_tokens: 100, cache_read_input_tokens: 9000, output_tokens: 1 },
      },
      parent_tool_use_id: null,
      session_id: SESSION,
    });
  // The shape Claude Code 2.1.332 writes: the text the model reads, the structured result beside.
  const result = (id: string, content: string, structured?: Record<string, unknown>) =>
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content }] },
      parent_tool_use_id: null,
      session_id: SESSION,
      ...(structured ? { tool_use_result: structured } : {}),
    });

  test('the real CLI: a refused call schedules nothing, a deleted job is gone, one job stays', () => {
    // cron.jsonl: an invalid expression (refused), a recurring job, a one-shot task deleted by
    // the id its result named, then the turn's result.
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    feed(monitor, lines('cron.jsonl'));
    assert.equal(monitor.stats.result?.isError, false);
    assert.deepEqual(monitor.stats.scheduledTasks, [
      {
        id: '7150f4aa',
        type: 'scheduled',
        description: '*/5 * * * *: check the nightly build',
        durable: false,
      },
    ]);
    assert.equal(pendingWorkOf(monitor.stats).length, 1);
  });

  test('without the structured result, the id is read from the text the model reads', () => {
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    feed(monitor, [
      call('toolu_c1', 'CronCreate', { cron: '17 3 * * *', prompt: 'send the report' }, 1),
      result('toolu_c1', 'Scheduled one-shot task 3a9a4aae (Every day at 3:17 AM). Next run: …'),
      call('toolu_c2', 'CronCreate', { cron: '*/7 * * * *', prompt: 'check', durable: true }, 2),
      result(
        'toolu_c2',
        'Scheduled recurring job 2ec04f22 (Every 7 minutes). Persisted to .claude/scheduled_tasks.json.',
      ),
    ]);
    assert.deepEqual(
      monitor.stats.scheduledTasks.map((t) => [t.id, t.durable]),
      [
        ['3a9a4aae', false],
        ['2ec04f22', true],
      ],
    );
  });

  test("an earlier iteration's job stays pending until this one deletes it", () => {
    const carried = {
      id: '7150f4aa',
      type: 'scheduled',
      description: '*/5 * * * *: check the nightly build',
      durable: false,
    };
    const idle = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    idle.adoptScheduled([carried]);
    assert.deepEqual(pendingWorkOf(idle.stats), [carried]);

    const deleting = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    deleting.adoptScheduled([carried]);
    feed(deleting, [
      call('toolu_d1', 'CronDelete', { id: 'nosuchid' }, 1),
      JSON.stringify({
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              content: "<tool_use_error>No scheduled job with id 'nosuchid'</tool_use_error>",
              is_error: true,
              tool_use_id: 'toolu_d1',
            },
          ],
        },
        session_id: SESSION,
        tool_use_result: "Error: No scheduled job with id 'nosuchid'",
      }),
    ]);
    assert.equal(deleting.stats.scheduledTasks.length, 1, 'a refused delete removes nothing');
    feed(deleting, [
      call('toolu_d2', 'CronDelete', { id: '7150f4aa' }, 2),
      result('toolu_d2', 'Cancelled job 7150f4aa.', { id: '7150f4aa' }),
    ]);
    assert.deepEqual(deleting.stats.scheduledTasks, []);
  });

  test('a job the session no longer has (its delete says so) is not pending', () => {
    const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
    monitor.adoptScheduled([
      { id: '4b7d49a0', type: 'scheduled', description: 'x', durable: false },
    ]);
    feed(monitor, [
      call('toolu_d1', 'CronDelete', { id: '4b7d49a0' }, 1),
      JSON.stringify({
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              content: "<tool_use_error>No scheduled job with id '4b7d49a0'</tool_use_error>",
              is_error: true,
              tool_use_id: 'toolu_d1',
            },
          ],
        },
        session_id: SESSION,
      }),
    ]);
    assert.deepEqual(monitor.stats.scheduledTasks, []);
  });

  test('a resumed session keeps its jobs, a new one the durable ones, another agent none', () => {
    const session = { id: 'a1', type: 'scheduled', description: 'x', durable: false };
    const durable = { id: 'b2', type: 'scheduled', description: 'y', durable: true };
    const jobs = [session, durable];
    assert.deepEqual(scheduledJobsFor(jobs, { keepsJobs: true, resumesSession: true }), jobs);
    assert.deepEqual(scheduledJobsFor(jobs, { keepsJobs: true, resumesSession: false }), [durable]);
    assert.deepEqual(scheduledJobsFor(jobs, { keepsJobs: false, resumesSession: true }), []);
  });
});
