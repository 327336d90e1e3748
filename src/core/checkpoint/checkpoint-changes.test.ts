import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { changesBetween } from './checkpoint-changes.ts';
import { makeTypicalCheckpoint } from './checkpoint-fixture.test-helper.ts';

describe('changesBetween', () => {
  const before = makeTypicalCheckpoint();
  const after = {
    ...before,
    conversationState: {
      ...before.conversationState,
      userRequests: [...before.conversationState.userRequests, 'now add the --json flag'],
      keyDecisions: [...before.conversationState.keyDecisions, 'keep the table format'],
    },
    taskState: {
      ...before.taskState,
      items: [
        ...before.taskState.items.map((t, i) => (i === 2 ? { ...t, status: 'completed' } : t)),
        { content: 'Write the flag test', status: 'pending' },
      ],
    },
    fileState: {
      ...before.fileState,
      modifiedFiles: [...before.fileState.modifiedFiles, 'src/cli/flags.ts'],
    },
    signals: { ...before.signals, toolCallCount: before.signals.toolCallCount + 3 },
    source: { ...before.source, contextTokens: before.source.contextTokens + 12_000 },
  };

  test('names the new request, the task done and the new one, files, decisions, calls and context', () => {
    const changes = changesBetween(before, after);
    assert.match(changes[0]!, /^request “now add the --json flag”$/);
    assert.ok(changes.includes('done: “Fix backslash paths in transcript lookup”'));
    assert.ok(changes.includes('new task: “Write the flag test”'));
    assert.ok(changes.includes('files changed: src/cli/flags.ts'));
    assert.ok(changes.includes('decided: “keep the table format”'));
    assert.ok(changes.some((c) => /^3 tool calls/.test(c)));
    assert.ok(changes.includes('context +12k tokens'));
  });

  test('nothing changed: nothing said; no checkpoint before: what it holds', () => {
    assert.deepEqual(changesBetween(before, before), []);
    const start = changesBetween(null, before);
    assert.ok(start.some((c) => /requests|request “/.test(c)));
    assert.ok(!start.some((c) => c.startsWith('context')), 'no growth without a start point');
  });
});
