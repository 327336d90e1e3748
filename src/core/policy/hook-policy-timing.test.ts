import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assessSession } from '../context/assess.ts';
import { decideAfterToolUse, EMPTY_HOOK_MEMORY, type HookMemory } from './hook-policy.ts';
import { checkpointPolicyOf, type CheckpointPolicy } from './checkpoint-policy.ts';
import { createSessionState, type SessionState, type ToolCallRecord } from '../session.ts';
import { claudeRuleFor } from '../../agents/claude/threshold.test-helper.ts';

// `checkpoints.timing: "changes"` (the default): the rule `npm run bench` scores, taken live.
const NOW = Date.parse('2026-03-01T12:00:00Z');
const MINUTE = 60_000;
const POLICY: CheckpointPolicy = checkpointPolicyOf({
  timing: 'changes',
  everyToolCalls: 5,
  fallbackCalls: 3,
  everyMinutes: 10,
});

const read = (n: number): ToolCallRecord => ({
  id: `c${n}`,
  tool: 'Read',
  args: '{}',
  kind: 'other',
  result: '',
  success: true,
  latencyMs: null,
  at: NOW,
  line: n,
});
const edit = (n: number): ToolCallRecord => ({ ...read(n), tool: 'Edit', kind: 'file_write' });
const shell = (n: number, command: string): ToolCallRecord => ({
  ...read(n),
  tool: 'Bash',
  kind: 'shell',
  target: command,
});

function session(calls: ToolCallRecord[], changes: Partial<SessionState> = {}): SessionState {
  const state = createSessionState('claude');
  state.model = 'claude-opus-4-6';
  state.cliVersion = '2.1.39';
  state.startedAt = NOW - 30 * MINUTE;
  state.turns = calls.length + 1;
  state.toolCalls = calls.length;
  state.recentTools = calls.slice(-20);
  state.lastResponse = {
    turn: state.turns,
    firstLine: 10,
    lastLine: 11,
    contextTokens: 40_000,
    outputTokens: 200,
    at: NOW - MINUTE,
    model: state.model,
    latencyMs: 2000,
  };
  state.responses = [state.lastResponse];
  return Object.assign(state, changes);
}

/** Each call of `calls` looked at in turn from a first checkpoint; the checkpoints taken. */
function run(calls: ToolCallRecord[], policy = POLICY, step = 10_000): string[] {
  let memory: HookMemory = { ...EMPTY_HOOK_MEMORY };
  const taken: string[] = [];
  calls.forEach((_, i) => {
    const state = session(calls.slice(0, i + 1));
    const now = NOW + i * step;
    const threshold = claudeRuleFor(state);
    const decision = decideAfterToolUse(
      state,
      assessSession(state, { threshold, now }),
      memory,
      now,
      policy,
    );
    if (decision.checkpoint) taken.push(`${i + 1}:${decision.checkpoint.trigger}`);
    memory = decision.memory;
  });
  return taken;
}

const range = (from: number, to: number, make: (n: number) => ToolCallRecord) =>
  Array.from({ length: to - from + 1 }, (_, i) => make(from + i));

describe('decideAfterToolUse with timing "changes"', () => {
  test('the settings pick the policy: "changes" falls back after fallbackCalls, "count" every everyToolCalls', () => {
    assert.deepEqual(POLICY, {
      timing: 'changes',
      toolCallInterval: 3,
      unchangedInterval: 5,
      timeIntervalMs: 10 * MINUTE,
    });
    const count = checkpointPolicyOf({
      timing: 'count',
      everyToolCalls: 5,
      fallbackCalls: 3,
      everyMinutes: 10,
    });
    assert.equal(count.toolCallInterval, 5);
  });

  test('reading only: no checkpoint after the first, however many calls', () => {
    assert.deepEqual(run(range(1, 12, read)), ['1:session_start']);
    // Any checkpoint saves the file changes before it.
    assert.deepEqual(run([edit(1), ...range(2, 8, read)]), ['1:session_start']);
  });

  test('a file changed: a checkpoint after fallbackCalls calls, saying why', () => {
    const calls = [read(1), edit(2), read(3), read(4), read(5), read(6)];
    assert.deepEqual(run(calls), ['1:session_start', '4:tool_call_interval']);
    let memory: HookMemory = {
      ...EMPTY_HOOK_MEMORY,
      lastCheckpointAt: NOW - MINUTE,
      toolCallsAtCheckpoint: 1,
    };
    const state = session(calls.slice(0, 4));
    memory = { ...memory, timing: { lastCall: 'c1', unsaved: false, completed: 0 } };
    const decision = decideAfterToolUse(
      state,
      assessSession(state, { threshold: claudeRuleFor(state), now: NOW }),
      memory,
      NOW,
      POLICY,
    );
    assert.equal(
      decision.checkpoint?.reason,
      '3 tool calls since the last checkpoint, a file changed since',
    );
    assert.deepEqual(decision.memory.timing, { lastCall: 'c4', unsaved: false, completed: 0 });
  });

  test('a commit or a passing test run after a file change checkpoints at once', () => {
    assert.deepEqual(run([read(1), edit(2), shell(3, 'git commit -m "parser"')]), [
      '1:session_start',
      '3:milestone',
    ]);
    assert.deepEqual(run([read(1), edit(2), shell(3, 'npm test')]), [
      '1:session_start',
      '3:milestone',
    ]);
    // A failing run is no work change: the fallback takes it.
    assert.deepEqual(
      run(
        [read(1), edit(2), shell(3, 'npm test'), read(4)].map((c, i) =>
          i === 2 ? { ...c, success: false } : c,
        ),
      ),
      ['1:session_start', '4:tool_call_interval'],
    );
  });

  test('a work change with no file changed since the last checkpoint takes none', () => {
    assert.deepEqual(run([read(1), shell(2, 'npm test'), shell(3, 'git commit -m "x"'), read(4)]), [
      '1:session_start',
    ]);
  });

  test('a task marked done after a file change is a work change', () => {
    const calls = [read(1), edit(2)];
    let memory: HookMemory = {
      ...EMPTY_HOOK_MEMORY,
      lastCheckpointAt: NOW - MINUTE,
      toolCallsAtCheckpoint: 1,
      timing: { lastCall: 'c1', unsaved: false, completed: 0 },
    };
    const state = session(calls, {
      todos: [
        { content: 'parse', status: 'completed' },
        { content: 'emit', status: 'pending' },
      ],
    });
    const decision = decideAfterToolUse(
      state,
      assessSession(state, { threshold: claudeRuleFor(state), now: NOW }),
      memory,
      NOW,
      POLICY,
    );
    assert.equal(decision.checkpoint?.trigger, 'milestone');
    memory = decision.memory;
    assert.equal(memory.timing?.completed, 1);
  });

  test('the time interval too waits for a file change', () => {
    const quiet = run(range(1, 3, read), { ...POLICY, toolCallInterval: 100 }, 6 * MINUTE);
    assert.deepEqual(quiet, ['1:session_start']);
    const edited = run(
      [read(1), edit(2), read(3)],
      { ...POLICY, toolCallInterval: 100 },
      6 * MINUTE,
    );
    assert.deepEqual(edited, ['1:session_start', '3:time_interval']);
  });

  test('"count" keeps checkpointing every N calls without file changes', () => {
    const count = checkpointPolicyOf({
      timing: 'count',
      everyToolCalls: 5,
      fallbackCalls: 3,
      everyMinutes: 10,
    });
    assert.deepEqual(run(range(1, 12, read), count), [
      '1:session_start',
      '6:tool_call_interval',
      '11:tool_call_interval',
    ]);
  });
});
