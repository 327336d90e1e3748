import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeTypicalCheckpoint } from './checkpoint-fixture.test-helper.ts';
import type { CheckpointDraft } from './checkpoint.ts';
import { inheritFromAncestor, mergeTaskItems } from './lineage.ts';

const ancestor = { ...makeTypicalCheckpoint(), id: 'ancestor-cp', sessionId: 'first-session' };

function resumedDraft(overrides: Partial<CheckpointDraft['taskState']> = {}): CheckpointDraft {
  const base = makeTypicalCheckpoint();
  return {
    ...base,
    id: 'child-cp',
    sessionId: 'second-session',
    conversationState: {
      ...base.conversationState,
      userRequests: ['continue'],
      keyDecisions: ['Use streaming for large files.'],
    },
    taskState: { ...base.taskState, items: [], nextSteps: [], completedSteps: [], ...overrides },
  };
}

describe('inheritance from the session a restore came from', () => {
  it("carries the ancestor's requests first, then the session's own, and counts them", () => {
    const merged = inheritFromAncestor(resumedDraft(), ancestor);
    const inherited = ancestor.conversationState.userRequests;
    assert.deepEqual(merged.conversationState.userRequests, [...inherited, 'continue']);
    assert.equal(merged.conversationState.inheritedRequests, inherited.length);
  });

  it("keeps the ancestor's whole task list while the session has none of its own", () => {
    const merged = inheritFromAncestor(resumedDraft(), ancestor);
    assert.equal(merged.taskState.items.length, ancestor.taskState.items.length);
    assert.ok(merged.taskState.items.every((i) => i.inherited === true));
    assert.deepEqual(merged.taskState.nextSteps, ancestor.taskState.nextSteps);
  });

  it('drops an inherited task once the session has taken it up, and keeps the rest until done', () => {
    const open = ancestor.taskState.items.filter((i) => i.status !== 'completed');
    const takenUp = { ...open[0]!, status: 'completed' };
    const items = mergeTaskItems([takenUp], ancestor.taskState.items);
    assert.equal(items[0], takenUp);
    assert.deepEqual(
      items.slice(1).map((i) => i.content),
      open.slice(1).map((i) => i.content),
    );
    assert.ok(items.slice(1).every((i) => i.inherited));
  });

  it('unites decisions (newest last, no repeats) and keeps the ancestor project instructions', () => {
    const merged = inheritFromAncestor(resumedDraft(), ancestor);
    const decisions = merged.conversationState.keyDecisions;
    assert.equal(decisions.at(-1), 'Use streaming for large files.');
    assert.equal(new Set(decisions).size, decisions.length);
    assert.equal(
      merged.userPreferences.customInstructions,
      ancestor.userPreferences.customInstructions,
    );
  });
});
