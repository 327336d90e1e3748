import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSessionState } from '../session.ts';
import { deferralEnd, describeDeferral, startDeferral, taskInProgress } from './deferral.ts';

function withTasks(tasks: Array<{ id: string; subject: string; status: string }>) {
  return Object.assign(createSessionState('claude'), { tasks });
}

describe('deferral', () => {
  test('the task in progress: the task list first, by id; else the todo list, by its text', () => {
    const state = withTasks([
      { id: '1', subject: 'Parser', status: 'completed' },
      { id: '2', subject: 'Wire it in', status: 'in_progress' },
    ]);
    state.todos = [{ content: 'ignored while a task list exists', status: 'in_progress' }];
    assert.deepEqual(taskInProgress(state)?.id, '2');
    const todos = Object.assign(createSessionState('claude'), {
      todos: [{ content: 'Write docs', status: 'in_progress' }],
    });
    assert.equal(taskInProgress(todos)?.content, 'Write docs');
    assert.equal(taskInProgress(createSessionState('claude')), null);
  });

  test('ends when its task completes, is removed, at L3 or at a compaction; not before', () => {
    const before = withTasks([{ id: '2', subject: 'Wire it in', status: 'in_progress' }]);
    const d = startDeferral(before, 0);
    assert.equal(deferralEnd(d, before, 'L2', 'a commit was made'), null, 'a commit is not it');
    const done = withTasks([{ id: '2', subject: 'Wire it in', status: 'completed' }]);
    assert.equal(deferralEnd(d, done, 'L2', null), 'task done');
    assert.equal(deferralEnd(d, withTasks([]), 'L1', null), 'task done');
    assert.equal(deferralEnd(d, before, 'L3', null), 'L3');
    assert.equal(deferralEnd(d, { ...before, compactionCount: 1 }, 'L1', null), 'compaction');
    assert.match(describeDeferral(d), /until "Wire it in" is done/);
  });
});
