import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assessSession, type Assessment } from '../context/assess.ts';
import {
  decideAfterToolUse,
  EMPTY_HOOK_MEMORY,
  inEpoch,
  type HookDecision,
  type HookMemory,
} from './hook-policy.ts';
import { DEFAULT_CHECKPOINT_POLICY } from './checkpoint-policy.ts';
import type { Level } from '../context/level.ts';
import { createSessionState, type SessionState, type ToolCallRecord } from '../session.ts';
import { claudeRuleFor } from '../../agents/claude/threshold.test-helper.ts';
import { startDeferral, type Deferral } from './deferral.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MINUTE = 60_000;
const MODEL = 'claude-opus-4-6';
const CLI = '2.1.39';

/** A session after `toolCalls` tool calls whose newest response used `contextTokens`. */
function session(
  toolCalls: number,
  contextTokens = 40_000,
  changes: Partial<SessionState> = {},
): SessionState {
  const state = createSessionState('claude');
  state.model = MODEL;
  state.cliVersion = CLI;
  state.startedAt = NOW - 30 * MINUTE;
  state.turns = toolCalls + 1;
  state.toolCalls = toolCalls;
  state.lastResponse = {
    turn: state.turns,
    firstLine: 10,
    lastLine: 11,
    contextTokens,
    outputTokens: 200,
    at: NOW - MINUTE,
    model: MODEL,
    latencyMs: 2000,
  };
  state.responses = [state.lastResponse];
  return Object.assign(state, changes);
}

function assess(state: SessionState, changes: Partial<Assessment> = {}): Assessment {
  return { ...assessSession(state, { threshold: claudeRuleFor(state), now: NOW }), ...changes };
}

/** Context sizes that land in each level of a 167k auto-compact threshold. */
const CONTEXT_AT: Record<Level, number> = {
  L0: 40_000,
  L1: 120_000,
  L2: 145_000,
  L3: 160_000,
};

/** A real assessment at `level` (checked, so the fixture cannot drift from the thresholds). */
function atLevel(level: Level, toolCalls: number, changes: Partial<SessionState> = {}) {
  const state = session(toolCalls, CONTEXT_AT[level], changes);
  const assessment = assess(state);
  assert.equal(assessment.level, level, `fixture for ${level}`);
  return { state, assessment };
}

function memory(changes: Partial<HookMemory> = {}): HookMemory {
  return { ...EMPTY_HOOK_MEMORY, ...changes };
}

/** Memory right after a checkpoint at `toolCalls` calls, a minute ago. */
function checkpointedAt(toolCalls: number, changes: Partial<HookMemory> = {}): HookMemory {
  return memory({ lastCheckpointAt: NOW - MINUTE, toolCallsAtCheckpoint: toolCalls, ...changes });
}

function decide(state: SessionState, mem: HookMemory, now = NOW): HookDecision {
  return decideAfterToolUse(state, assess(state), mem, now);
}

function bash(command: string, success: boolean, n = 1): ToolCallRecord {
  return {
    id: `toolu_${n}`,
    tool: 'Bash',
    args: JSON.stringify({ command, description: 'Run a command' }),
    // What Claude Code's fold makes of a Bash call (agents/claude/fold.ts).
    kind: 'shell',
    target: command,
    result: success ? 'ok' : 'Exit code 1',
    success,
    latencyMs: 500,
    at: NOW - 1000,
    line: 20 + n,
  };
}

describe('decideAfterToolUse: checkpoint triggers', () => {
  test('the default policy is every 5 tool calls or 10 minutes', () => {
    assert.deepEqual(DEFAULT_CHECKPOINT_POLICY, {
      toolCallInterval: 5,
      timeIntervalMs: 10 * MINUTE,
    });
  });

  test('before any tool call there is nothing to do', () => {
    const decision = decide(session(0), memory());
    assert.equal(decision.checkpoint, null);
    assert.equal(decision.alert, null);
    assert.deepEqual(decision.memory, memory());
  });

  test('the first tool call takes the session_start checkpoint', () => {
    const decision = decide(session(1), memory());
    assert.deepEqual(decision.checkpoint, {
      trigger: 'session_start',
      reason: 'first checkpoint of the session',
      urgent: false,
    });
    assert.equal(decision.alert, null);
    assert.equal(decision.memory.lastCheckpointAt, NOW);
    assert.equal(decision.memory.toolCallsAtCheckpoint, 1);
  });

  test('every 5 tool calls take a tool_call_interval checkpoint', () => {
    assert.equal(decide(session(5), checkpointedAt(1)).checkpoint, null);
    const decision = decide(session(6), checkpointedAt(1));
    assert.deepEqual(decision.checkpoint, {
      trigger: 'tool_call_interval',
      reason: '5 tool calls since the last checkpoint',
      urgent: false,
    });
    assert.equal(decision.memory.toolCallsAtCheckpoint, 6);
    assert.equal(decision.memory.lastCheckpointAt, NOW);
  });

  test('a run of tool calls checkpoints at 1, 6, 11 and 16', () => {
    let mem = memory();
    const taken: string[] = [];
    for (let calls = 1; calls <= 18; calls++) {
      const now = NOW + calls * 10_000;
      const decision = decide(session(calls), mem, now);
      if (decision.checkpoint) taken.push(`${calls}:${decision.checkpoint.trigger}`);
      mem = decision.memory;
    }
    assert.deepEqual(taken, [
      '1:session_start',
      '6:tool_call_interval',
      '11:tool_call_interval',
      '16:tool_call_interval',
    ]);
    assert.equal(mem.toolCallsAtCheckpoint, 16);
    assert.equal(mem.lastCheckpointAt, NOW + 16 * 10_000);
  });

  test('a call burst larger than the interval reports the calls since the checkpoint', () => {
    const decision = decide(session(13), checkpointedAt(1));
    assert.equal(decision.checkpoint?.trigger, 'tool_call_interval');
    assert.equal(decision.checkpoint?.reason, '12 tool calls since the last checkpoint');
  });

  test('the policy can be changed', () => {
    const state = session(3);
    const policy = { toolCallInterval: 2, timeIntervalMs: MINUTE };
    const byCalls = decideAfterToolUse(state, assess(state), checkpointedAt(1), NOW, policy);
    assert.equal(byCalls.checkpoint?.trigger, 'tool_call_interval');
    const byTime = decideAfterToolUse(state, assess(state), checkpointedAt(2), NOW, policy);
    assert.equal(byTime.checkpoint?.trigger, 'time_interval');
  });

  test('10 minutes after the last checkpoint take a time_interval checkpoint', () => {
    const mem = memory({ lastCheckpointAt: NOW - 10 * MINUTE, toolCallsAtCheckpoint: 3 });
    const decision = decide(session(4), mem);
    assert.deepEqual(decision.checkpoint, {
      trigger: 'time_interval',
      reason: 'time since the last checkpoint',
      urgent: false,
    });
    assert.equal(decision.memory.lastCheckpointAt, NOW);
    assert.equal(decision.memory.toolCallsAtCheckpoint, 4);
  });

  test('not before 10 minutes', () => {
    const mem = memory({ lastCheckpointAt: NOW - 10 * MINUTE + 1, toolCallsAtCheckpoint: 3 });
    assert.equal(decide(session(4), mem).checkpoint, null);
  });

  test('time alone is not enough: no tool call since the checkpoint, no checkpoint', () => {
    const mem = memory({ lastCheckpointAt: NOW - 60 * MINUTE, toolCallsAtCheckpoint: 4 });
    const decision = decide(session(4), mem);
    assert.equal(decision.checkpoint, null);
    assert.equal(decision.memory.lastCheckpointAt, NOW - 60 * MINUTE);
  });

  test('without a checkpoint the memory keeps its checkpoint fields', () => {
    const mem = checkpointedAt(2);
    const decision = decide(session(3), mem);
    assert.equal(decision.checkpoint, null);
    assert.equal(decision.memory.lastCheckpointAt, mem.lastCheckpointAt);
    assert.equal(decision.memory.toolCallsAtCheckpoint, 2);
  });

  test('the memory passed in is not changed', () => {
    const mem = memory({ epoch: 0, alertedLevel: 'L0' });
    const frozen = structuredClone(mem);
    const { state, assessment } = atLevel('L2', 7, { compactionCount: 1 });
    decideAfterToolUse(state, assessment, mem, NOW);
    assert.deepEqual(mem, frozen);
  });
});

describe('decideAfterToolUse: level alerts', () => {
  test('reaching L1 alerts once and takes a warning_zone checkpoint, not urgent', () => {
    const { state, assessment } = atLevel('L1', 3);
    const decision = decideAfterToolUse(state, assessment, checkpointedAt(2), NOW);
    assert.equal(decision.alert, 'L1');
    assert.deepEqual(decision.checkpoint, {
      trigger: 'warning_zone',
      reason: 'context reached L1',
      urgent: false,
    });
    assert.equal(decision.memory.alertedLevel, 'L1');
    assert.equal(decision.memory.lastCheckpointAt, NOW);
    assert.equal(decision.memory.toolCallsAtCheckpoint, 3);
  });

  for (const level of ['L2', 'L3'] as const) {
    test(`reaching ${level} alerts and takes an urgent danger_zone checkpoint`, () => {
      const { state, assessment } = atLevel(level, 3);
      const decision = decideAfterToolUse(state, assessment, checkpointedAt(2), NOW);
      assert.equal(decision.alert, level);
      assert.deepEqual(decision.checkpoint, {
        trigger: 'danger_zone',
        reason: `context reached ${level}`,
        urgent: true,
      });
      assert.equal(decision.memory.alertedLevel, level);
    });
  }

  test('a jump from L0 to L3 alerts L3 only', () => {
    const { state, assessment } = atLevel('L3', 3);
    const decision = decideAfterToolUse(state, assessment, checkpointedAt(2), NOW);
    assert.equal(decision.alert, 'L3');
  });

  test('each level is alerted once per compaction epoch', () => {
    let mem = checkpointedAt(2);
    const alerts: Array<Level | null> = [];
    const plan: Level[] = ['L1', 'L1', 'L2', 'L2', 'L1', 'L2', 'L3', 'L3', 'L2'];
    plan.forEach((level, i) => {
      const { state, assessment } = atLevel(level, 3 + i);
      const decision = decideAfterToolUse(state, assessment, mem, NOW + i * 1000);
      alerts.push(decision.alert);
      mem = decision.memory;
    });
    assert.deepEqual(alerts, ['L1', null, 'L2', null, null, null, 'L3', null, null]);
    assert.equal(mem.alertedLevel, 'L3');
  });

  test('a level already alerted takes no level checkpoint', () => {
    const { state, assessment } = atLevel('L2', 3);
    const decision = decideAfterToolUse(
      state,
      assessment,
      checkpointedAt(2, { alertedLevel: 'L2', riskSeen: assessment.risk }),
      NOW,
    );
    assert.equal(decision.alert, null);
    assert.equal(decision.checkpoint, null);
  });

  test('after a compaction the levels are alerted again', () => {
    const before = checkpointedAt(40, { alertedLevel: 'L3', epoch: 0, riskSeen: 'danger' });
    const { state, assessment } = atLevel('L1', 41, { compactionCount: 1 });
    const decision = decideAfterToolUse(state, assessment, before, NOW);
    assert.equal(decision.alert, 'L1');
    assert.equal(decision.checkpoint?.trigger, 'warning_zone');
    assert.equal(decision.memory.epoch, 1);
    assert.equal(decision.memory.alertedLevel, 'L1');

    // Same epoch, same level: quiet again.
    const again = atLevel('L1', 42, { compactionCount: 1 });
    const next = decideAfterToolUse(again.state, again.assessment, decision.memory, NOW + 1000);
    assert.equal(next.alert, null);

    // A second compaction opens another epoch.
    const third = atLevel('L2', 80, { compactionCount: 2 });
    const later = decideAfterToolUse(third.state, third.assessment, next.memory, NOW + 2000);
    assert.equal(later.alert, 'L2');
    assert.equal(later.memory.epoch, 2);
  });

  test('a compaction at L0 records the new epoch without alerting', () => {
    const before = checkpointedAt(40, { alertedLevel: 'L2', epoch: 0 });
    const decision = decide(session(41, 30_000, { compactionCount: 1 }), before);
    assert.equal(decision.alert, null);
    assert.equal(decision.checkpoint, null);
    assert.equal(decision.memory.epoch, 1);
    assert.equal(decision.memory.alertedLevel, 'L0');
  });
});

describe('decideAfterToolUse: crash risk', () => {
  function withRisk(risk: Assessment['risk'], riskSeen: HookMemory['riskSeen']) {
    const state = session(3);
    return decideAfterToolUse(state, assess(state, { risk }), checkpointedAt(2, { riskSeen }), NOW);
  }

  test('risk rising to danger takes an urgent danger_zone checkpoint', () => {
    for (const from of ['safe', 'warning'] as const) {
      const decision = withRisk('danger', from);
      assert.deepEqual(decision.checkpoint, {
        trigger: 'danger_zone',
        reason: 'crash risk is danger',
        urgent: true,
      });
      assert.equal(decision.alert, null);
      assert.equal(decision.memory.riskSeen, 'danger');
    }
  });

  test('risk rising from safe to warning takes a warning_zone checkpoint, not urgent', () => {
    const decision = withRisk('warning', 'safe');
    assert.deepEqual(decision.checkpoint, {
      trigger: 'warning_zone',
      reason: 'crash risk is warning',
      urgent: false,
    });
    assert.equal(decision.memory.riskSeen, 'warning');
  });

  test('risk staying or falling takes no checkpoint but is remembered', () => {
    const cases: Array<[Assessment['risk'], HookMemory['riskSeen']]> = [
      ['danger', 'danger'],
      ['warning', 'warning'],
      ['warning', 'danger'],
      ['safe', 'danger'],
      ['safe', 'warning'],
    ];
    for (const [risk, seen] of cases) {
      const decision = withRisk(risk, seen);
      assert.equal(decision.checkpoint, null, `${seen} → ${risk}`);
      assert.equal(decision.memory.riskSeen, risk);
    }
  });

  test('a compaction forgets the risk seen, so danger checkpoints again', () => {
    const state = session(41, 30_000, { compactionCount: 1 });
    const mem = checkpointedAt(40, { riskSeen: 'danger', epoch: 0 });
    const decision = decideAfterToolUse(state, assess(state, { risk: 'danger' }), mem, NOW);
    assert.equal(decision.checkpoint?.trigger, 'danger_zone');
    assert.equal(decision.checkpoint?.urgent, true);
  });

  test('a level alert names the level even when the risk rises with it', () => {
    const { state, assessment } = atLevel('L1', 3);
    assert.equal(assessment.risk, 'warning');
    const decision = decideAfterToolUse(state, assessment, checkpointedAt(2), NOW);
    assert.equal(decision.checkpoint?.reason, 'context reached L1');
    const urgent = decideAfterToolUse(
      state,
      { ...assessment, risk: 'danger' },
      checkpointedAt(2),
      NOW,
    );
    assert.equal(urgent.checkpoint?.trigger, 'danger_zone');
    assert.equal(urgent.checkpoint?.reason, 'context reached L1');
    assert.equal(urgent.alert, 'L1');
  });
});

describe('decideAfterToolUse: milestones', () => {
  const task = (id: string, status: string) => ({ id, subject: `task ${id}`, status });

  test('the task list becoming all done is a milestone, once', () => {
    const open = session(3, 40_000, { tasks: [task('1', 'completed'), task('2', 'in_progress')] });
    const first = decide(open, checkpointedAt(2));
    assert.equal(first.checkpoint, null);
    assert.equal(first.memory.tasksDone, false);

    const done = session(4, 40_000, { tasks: [task('1', 'completed'), task('2', 'completed')] });
    const second = decide(done, first.memory);
    assert.deepEqual(second.checkpoint, {
      trigger: 'milestone',
      reason: 'the task list is finished',
      urgent: false,
    });
    assert.equal(second.memory.tasksDone, true);
    assert.equal(second.memory.lastCheckpointAt, NOW);
    assert.equal(second.memory.toolCallsAtCheckpoint, 4);

    const third = decide(session(5, 40_000, { tasks: done.tasks }), second.memory);
    assert.equal(third.checkpoint, null);
    assert.equal(third.memory.tasksDone, true);
  });

  test('deleted tasks count as done', () => {
    const state = session(3, 40_000, { tasks: [task('1', 'completed'), task('2', 'deleted')] });
    assert.equal(decide(state, checkpointedAt(2)).checkpoint?.trigger, 'milestone');
  });

  test('todos count when there are no tasks', () => {
    const state = session(3, 40_000, {
      todos: [
        { content: 'write tests', status: 'completed' },
        { content: 'fix bug', status: 'completed' },
      ],
    });
    assert.equal(decide(state, checkpointedAt(2)).checkpoint?.reason, 'the task list is finished');
  });

  test('an empty task list is not finished', () => {
    const decision = decide(session(3), checkpointedAt(2));
    assert.equal(decision.checkpoint, null);
    assert.equal(decision.memory.tasksDone, false);
  });

  test('a new open task after all were done arms the milestone again', () => {
    const reopened = session(3, 40_000, { tasks: [task('1', 'completed'), task('2', 'pending')] });
    const decision = decide(reopened, checkpointedAt(2, { tasksDone: true }));
    assert.equal(decision.memory.tasksDone, false);
    const done = session(4, 40_000, { tasks: [task('1', 'completed'), task('2', 'completed')] });
    assert.equal(decide(done, decision.memory).checkpoint?.trigger, 'milestone');
  });

  test('a successful git commit is a milestone', () => {
    const state = session(3, 40_000, {
      recentTools: [bash('git add -A && git commit -m "Add parser"', true)],
    });
    assert.deepEqual(decide(state, checkpointedAt(2)).checkpoint, {
      trigger: 'milestone',
      reason: 'a commit was made',
      urgent: false,
    });
  });

  test('a failed commit, or a commit that is not the latest tool call, is not', () => {
    const failed = session(3, 40_000, { recentTools: [bash('git commit -m "x"', false)] });
    assert.equal(decide(failed, checkpointedAt(2)).checkpoint, null);
    const older = session(3, 40_000, {
      recentTools: [
        bash('git commit -m "x"', true, 1),
        {
          ...bash('', true, 2),
          tool: 'Read',
          kind: 'other',
          target: '/a.ts',
          args: '{"file_path":"/a.ts"}',
        },
      ],
    });
    assert.equal(decide(older, checkpointedAt(2)).checkpoint, null);
  });

  test('tests passing after failing is a milestone', () => {
    const failing = session(3, 40_000, { recentTools: [bash('npm test', false, 1)] });
    const first = decide(failing, checkpointedAt(2));
    assert.equal(first.checkpoint, null);
    assert.equal(first.memory.testsFailing, true);

    const stillFailing = session(4, 40_000, {
      recentTools: [bash('npm test', false, 1), bash('npx vitest run', false, 2)],
    });
    const second = decide(stillFailing, first.memory);
    assert.equal(second.checkpoint, null);
    assert.equal(second.memory.testsFailing, true);

    const passing = session(5, 40_000, {
      recentTools: [...stillFailing.recentTools, bash('npm test', true, 3)],
    });
    const third = decide(passing, second.memory);
    assert.deepEqual(third.checkpoint, {
      trigger: 'milestone',
      reason: 'the tests pass again',
      urgent: false,
    });
    assert.equal(third.memory.testsFailing, false);
  });

  test('tests passing without a failure before are not a milestone', () => {
    const state = session(3, 40_000, { recentTools: [bash('pytest -q', true)] });
    const decision = decide(state, checkpointedAt(2));
    assert.equal(decision.checkpoint, null);
    assert.equal(decision.memory.testsFailing, false);
  });

  test('other tools leave the test state alone', () => {
    const state = session(3, 40_000, {
      recentTools: [
        {
          ...bash('', true),
          tool: 'Edit',
          kind: 'file_write',
          target: '/a.test.ts',
          args: '{"file_path":"/a.test.ts"}',
        },
      ],
    });
    const decision = decide(state, checkpointedAt(2, { testsFailing: true }));
    assert.equal(decision.checkpoint, null);
    assert.equal(decision.memory.testsFailing, true);
    const build = session(4, 40_000, { recentTools: [bash('npm run build', false)] });
    assert.equal(decide(build, decision.memory).memory.testsFailing, true);
  });

  test('a level alert takes precedence over a milestone', () => {
    const { state, assessment } = atLevel('L2', 3, {
      tasks: [task('1', 'completed')],
    });
    const decision = decideAfterToolUse(state, assessment, checkpointedAt(2), NOW);
    assert.equal(decision.checkpoint?.trigger, 'danger_zone');
    assert.equal(decision.memory.tasksDone, true);
  });

  test('a milestone takes precedence over the interval and session start', () => {
    const state = session(1, 40_000, { recentTools: [bash('git commit -m "init"', true)] });
    assert.equal(decide(state, memory()).checkpoint?.trigger, 'milestone');
    const later = session(9, 40_000, { recentTools: [bash('git commit -m "more"', true)] });
    assert.equal(decide(later, checkpointedAt(1)).checkpoint?.trigger, 'milestone');
  });
});

describe('inEpoch: nothing alerted before a compaction carries over', () => {
  test('a new epoch forgets the level, the risk and the Stop band; the same epoch keeps them', () => {
    const before: HookMemory = {
      ...EMPTY_HOOK_MEMORY,
      epoch: 0,
      alertedLevel: 'L3',
      riskSeen: 'danger',
      stopNoticeBand: 9,
      hookToolCalls: 12,
    };
    assert.equal(inEpoch(before, 0), before);
    const after = inEpoch(before, 1);
    assert.deepEqual(
      [after.epoch, after.alertedLevel, after.riskSeen, after.stopNoticeBand, after.hookToolCalls],
      [1, 'L0', 'safe', 0, 12],
    );
  });

  test('Stop having moved the epoch first, PostToolUse still alerts the new window from L0', () => {
    // Stop after the compaction saved epoch 1: the L3 of epoch 0 must not silence L1 now.
    const moved = inEpoch({ ...EMPTY_HOOK_MEMORY, alertedLevel: 'L3' }, 1);
    const state = session(3, 125_000, { compactionCount: 1 });
    const decision = decideAfterToolUse(state, assess(state), moved, NOW);
    assert.equal(decision.alert, 'L1');
  });
});

describe('decideAfterToolUse: with a team store connected (onWorkChange)', () => {
  const team = { ...DEFAULT_CHECKPOINT_POLICY, onWorkChange: true };
  const task = (id: string, status: string) => ({ id, subject: `Task ${id}`, status });

  test('a new request or a task change is a checkpoint; the same work again is not', () => {
    const before = session(2, 40_000, { promptCount: 1, tasks: [task('1', 'pending')] });
    const first = decideAfterToolUse(before, assess(before), checkpointedAt(1), NOW, team);
    assert.equal(first.checkpoint?.trigger, 'milestone', 'no signature at the last checkpoint');
    const mem = first.memory;
    const same = session(3, 40_000, { promptCount: 1, tasks: [task('1', 'pending')] });
    assert.equal(decideAfterToolUse(same, assess(same), mem, NOW, team).checkpoint, null);
    const asked = session(3, 40_000, { promptCount: 2, tasks: [task('1', 'pending')] });
    assert.match(
      decideAfterToolUse(asked, assess(asked), mem, NOW, team).checkpoint?.reason ?? '',
      /requests or tasks changed/,
    );
    const moved = session(3, 40_000, { promptCount: 1, tasks: [task('1', 'in_progress')] });
    assert.equal(
      decideAfterToolUse(moved, assess(moved), mem, NOW, team).checkpoint?.trigger,
      'milestone',
    );
    // Without a team store the same change waits for the interval.
    assert.equal(decideAfterToolUse(moved, assess(moved), mem, NOW).checkpoint, null);
  });
});

describe('decideAfterToolUse: "just one more task" (a deferral)', () => {
  const todos = (status: string) => [
    { content: 'Write the parser', status },
    { content: 'Wire it in', status: 'pending' },
  ];
  const deferredAt = (toolCalls: number): Deferral =>
    startDeferral(session(toolCalls, CONTEXT_AT.L0, { todos: todos('in_progress') }), NOW);

  test('L1 and L2 are held back (their checkpoints still taken) and given once the task is done', () => {
    let mem = checkpointedAt(2);
    let deferral: Deferral | null = deferredAt(2);
    const step = (level: Level, calls: number, status: string) => {
      const { state, assessment } = atLevel(level, calls, { todos: todos(status) });
      const d = decideAfterToolUse(state, assessment, mem, NOW, undefined, deferral);
      mem = d.memory;
      deferral = d.deferral;
      return d;
    };
    const l1 = step('L1', 3, 'in_progress');
    assert.equal(l1.alert, null, 'no L1 notice');
    assert.equal(l1.checkpoint?.trigger, 'warning_zone', 'the L1 checkpoint is taken');
    assert.equal(deferral?.held, 'L1');
    const l2 = step('L2', 4, 'in_progress');
    assert.equal(l2.alert, null, 'no L2 notice (and so no L2 handoff)');
    assert.deepEqual(l2.checkpoint, {
      trigger: 'danger_zone',
      reason: 'context reached L2',
      urgent: true,
    });
    assert.equal(deferral?.held, 'L2');
    assert.equal(step('L2', 5, 'in_progress').alert, null, 'still held');
    const done = step('L2', 6, 'completed');
    assert.equal(done.alert, 'L2', 'the notice comes when the task is done');
    assert.equal(done.checkpoint?.urgent, true, 'with the L2 checkpoint (and its handoff)');
    assert.match(done.released ?? '', /"Write the parser" is done/);
    assert.equal(deferral, null, 'the deferral ended by itself');
    assert.equal(step('L2', 7, 'completed').alert, null, 'given once');
  });

  test('L3 ends it at once and is alerted as always', () => {
    const { state, assessment } = atLevel('L3', 3, { todos: todos('in_progress') });
    const d = decideAfterToolUse(state, assessment, checkpointedAt(2), NOW, undefined, {
      ...deferredAt(2),
      held: 'L2',
    });
    assert.equal(d.alert, 'L3');
    assert.equal(d.deferral, null);
    assert.match(d.released ?? '', /reached L3/);
  });

  test('with no task in progress it ends at the next milestone (here a commit)', () => {
    const deferral = startDeferral(session(2), NOW);
    assert.equal(deferral.task, null);
    const held = atLevel('L1', 3);
    const first = decideAfterToolUse(
      held.state,
      held.assessment,
      checkpointedAt(2),
      NOW,
      undefined,
      deferral,
    );
    assert.equal(first.alert, null);
    const commit = atLevel('L1', 4, { recentTools: [bash('git commit -m "parser"', true)] });
    const second = decideAfterToolUse(
      commit.state,
      commit.assessment,
      first.memory,
      NOW,
      undefined,
      first.deferral,
    );
    assert.equal(second.alert, 'L1');
    assert.equal(second.deferral, null);
  });

  test('a deferral that held nothing ends quietly; no deferral changes nothing', () => {
    const { state, assessment } = atLevel('L0', 3, { todos: todos('completed') });
    const d = decideAfterToolUse(
      state,
      assessment,
      checkpointedAt(2),
      NOW,
      undefined,
      deferredAt(2),
    );
    assert.equal(d.deferral, null);
    assert.equal(d.released, null);
    assert.equal(d.alert, null);
    const plain = atLevel('L1', 3);
    const without = decideAfterToolUse(plain.state, plain.assessment, checkpointedAt(2), NOW);
    assert.equal(without.alert, 'L1');
    assert.equal(without.deferral, null);
  });
});
