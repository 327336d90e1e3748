import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  chooseFallbackGap,
  mayChangeWork,
  observeWork,
  placeCheckpoints,
  scoreTiming,
  type WorkStep,
  workStepOf,
} from './checkpoint-timing.ts';
import { createSessionState, type ToolCallRecord } from '../session.ts';

const step = (edit: boolean, workChange = false): WorkStep => ({ edit, workChange });
// Two edits, a passing test (the work changes), reading, one more edit.
const steps = [step(true), step(true), step(false, true), step(false), step(false), step(true)];

test('by count every N calls; at work changes with a fallback after K calls without one', () => {
  assert.deepEqual(placeCheckpoints(steps, { kind: 'count', every: 2 }), [1, 3, 5]);
  assert.deepEqual(placeCheckpoints(steps, { kind: 'work-change', fallbackAfter: 3 }), [2, 5]);
  // Nothing changed in files since the test run: no checkpoint at the fallback.
  assert.deepEqual(
    placeCheckpoints([step(true, true), step(false), step(false), step(false)], {
      kind: 'work-change',
      fallbackAfter: 2,
      onlyAfterEdits: true,
    }),
    [0],
  );
});

test('a restore after any call loses the file changes made since the newest checkpoint', () => {
  // A death right after a call comes before the checkpoint it triggers. Every 2: after call 0
  // one edit is unsaved, after call 1 two, after call 5 one (calls 2–4 lose nothing).
  assert.deepEqual(scoreTiming(steps, { kind: 'count', every: 2 }), {
    restores: 6,
    lossy: 3,
    editsLost: 4,
    checkpoints: 3,
  });
  // At the test run (call 2): calls 0, 1, 2 and 5 lose 1, 2, 2 and 1.
  assert.deepEqual(scoreTiming(steps, { kind: 'work-change', fallbackAfter: 3 }), {
    restores: 6,
    lossy: 4,
    editsLost: 6,
    checkpoints: 2,
  });
});

test('the learned gap loses least within the checkpoint budget', () => {
  const score = (lossy: number, checkpoints: number) => ({
    restores: 10,
    lossy,
    editsLost: lossy,
    checkpoints,
  });
  const byGap = new Map([
    [1, score(0, 10)],
    [2, score(2, 5)],
    [3, score(4, 3)],
  ]);
  assert.equal(chooseFallbackGap(byGap, 5), 2);
  assert.equal(chooseFallbackGap(byGap, 3), 3);
  assert.equal(chooseFallbackGap(byGap, 1), 3, 'none fits: the largest gap');
});

const call = (id: string, kind: ToolCallRecord['kind'], target = '', success = true) =>
  ({
    id,
    tool: 'T',
    args: '{}',
    kind,
    target,
    result: '',
    success,
    latencyMs: null,
    at: null,
    line: 1,
  }) satisfies ToolCallRecord;

test('a call is a step: a file written; the work changed by a commit, a passing test run, a task done', () => {
  assert.deepEqual(workStepOf(call('a', 'file_write', '/p/a.ts'), false), step(true));
  assert.deepEqual(workStepOf(call('b', 'shell', 'git commit -m "x"'), false), step(false, true));
  assert.deepEqual(workStepOf(call('c', 'shell', 'git commit --dry-run'), false), step(false));
  assert.deepEqual(workStepOf(call('d', 'shell', 'npm test'), false), step(false, true));
  assert.deepEqual(workStepOf(call('e', 'shell', 'npm test', false), false), step(false));
  assert.deepEqual(workStepOf(call('f', 'search', 'TODO'), true), step(false, true));
});

test('a shell command may change the work when it commits or runs a check; reading cannot', () => {
  for (const command of [
    'git commit -m "x"',
    'npm test',
    'npx vitest run',
    'cargo build',
    'npm run lint',
  ])
    assert.equal(mayChangeWork(command), true, command);
  for (const command of [
    'ls src',
    'cat a.ts',
    'rg parse src',
    'git status',
    'git commit --dry-run',
  ])
    assert.equal(mayChangeWork(command), false, command);
  // Whatever a successful call of it counts as, a command the hooks answer unlooked is no milestone.
  for (const command of ['ls src', 'git log -3'])
    assert.equal(workStepOf(call('g', 'shell', command), false).workChange, false, command);
});

test('observeWork folds only the calls the last look did not see', () => {
  const state = (recentTools: ToolCallRecord[], done = 0) => ({
    ...createSessionState('claude'),
    recentTools,
    todos: Array.from({ length: done }, (_, i) => ({
      content: `t${i}`,
      status: 'completed' as const,
    })),
  });
  const first = observeWork(state([call('a', 'file_write'), call('b', 'search')]), null);
  assert.deepEqual(first, {
    memory: { lastCall: 'b', unsaved: true, completed: 0 },
    workChange: false,
  });
  // Seen already: no new step, the edit is still unsaved until a checkpoint clears it.
  const saved = { ...first.memory, unsaved: false };
  const again = observeWork(state([call('a', 'file_write'), call('b', 'search')]), saved);
  assert.deepEqual(again, { memory: saved, workChange: false });
  const tested = observeWork(
    state([call('a', 'file_write'), call('b', 'search'), call('c', 'shell', 'pytest -q')]),
    saved,
  );
  assert.deepEqual(tested, {
    memory: { lastCall: 'c', unsaved: false, completed: 0 },
    workChange: true,
  });
  // A task marked done counts as a work change.
  assert.equal(
    observeWork(state([call('a', 'file_write'), call('b', 'search')], 1), saved).workChange,
    true,
  );
  // The last call seen fell out of the recent calls: a file change is assumed.
  assert.equal(observeWork(state([call('x', 'search')]), saved).memory.unsaved, true);
});
