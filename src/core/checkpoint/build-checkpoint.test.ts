import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixturePath } from '../../../test/helpers/fixtures.ts';
import { readTranscript } from '../../agents/claude/transcript-reader.ts';
import { assessSession } from '../context/assess.ts';
import { buildCheckpoint, type GitFacts } from './build-checkpoint.ts';
import { CHECKPOINT_LIMITS, validateCheckpoint } from './checkpoint-limits.ts';
import { claudeRuleFor } from '../../agents/claude/threshold.test-helper.ts';

function build(name: string, git: GitFacts | null = null, untilLine?: number) {
  const state = readTranscript(fixturePath(name), null, untilLine ? { untilLine } : {}).cursor
    .state;
  const assessment = assessSession(state, {
    threshold: claudeRuleFor(state),
    now: state.lastActivityAt ?? 0,
  });
  const draft = buildCheckpoint({
    id: 'id-1',
    sessionId: state.sessionId ?? 's',
    createdAt: '2026-02-12T04:15:00.000Z',
    trigger: 'pre_compact',
    reason: 'test',
    state,
    agent: { id: 'claude', name: 'Claude Code' },
    assessment,
    git,
    transcriptPath: '/t.jsonl',
  });
  return { state, assessment, draft };
}

describe('buildCheckpoint on real transcripts', () => {
  test('the task list comes from TaskCreate/TaskUpdate with exact statuses', () => {
    const { draft } = build('entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl');
    assert.deepEqual(
      draft.taskState.items.map((i) => i.status),
      ['completed', 'completed', 'completed', 'completed', 'in_progress'],
    );
    assert.equal(draft.taskState.progress, 0.8);
    assert.equal(draft.taskState.operation, 'Run fmt, lint, and tests');
    assert.deepEqual(draft.taskState.nextSteps, ['(in progress) Run fmt, lint, and tests']);
  });

  test('TodoWrite todos become the task list when there are no tasks', () => {
    const { draft, state } = build('entire-2372de7ea2ff-auto-compact-155k-todowrite-v2.1.5.jsonl');
    assert.equal(draft.taskState.items.length, state.todos.length);
    assert.ok(draft.taskState.items.length > 0);
  });

  test('the user requests are carried verbatim and the source records where it came from', () => {
    const { draft, state, assessment } = build('spotter-4d5611e5-auto-compact-v2.1.39.jsonl');
    assert.deepEqual(
      draft.conversationState.userRequests,
      state.prompts.map((p) => p.text),
    );
    assert.equal(draft.source.transcriptLine, state.parse.lines);
    assert.equal(draft.source.contextTokens, assessment.contextTokens);
    assert.equal(draft.signals.crashRisk, assessment.risk);
  });

  test('without git the files come from the tools the agent used', () => {
    const { draft, state } = build(
      'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl',
    );
    assert.deepEqual(draft.fileState.modifiedFiles, state.filesChanged);
    assert.equal(draft.fileState.snapshot, null);
  });

  test('git facts win for the file state, untracked files marked new', () => {
    const git: GitFacts = {
      repoRoot: '/repo',
      branch: 'main',
      head: 'abc',
      modifiedFiles: ['a.ts'],
      stagedFiles: ['b.ts'],
      untrackedFiles: ['c.ts'],
      uncommittedDiff: 'diff --git a/a.ts b/a.ts',
      snapshot: { ref: 'refs/shim/snapshots/id-1', commit: 'def', head: 'abc', branch: 'main' },
    };
    const { draft } = build('spotter-short-v2.1.38.jsonl', git);
    assert.deepEqual(draft.fileState.modifiedFiles, ['a.ts', 'c.ts (new)']);
    assert.deepEqual(draft.fileState.stagedFiles, ['b.ts']);
    assert.equal(draft.fileState.snapshot?.ref, 'refs/shim/snapshots/id-1');
  });

  test('every fixture builds a checkpoint within all limits', () => {
    for (const name of [
      'entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl',
      'entire-6d63c3a51594-subagent-prompt-too-long-v2.1.37.jsonl',
    ]) {
      const { draft } = build(name);
      assert.deepEqual(validateCheckpoint(draft).errors, []);
      assert.ok(draft.conversationState.summary.length <= CHECKPOINT_LIMITS.summaryChars);
      assert.ok(draft.toolState.recentToolCalls.length <= 20);
    }
  });

  test('a subagent that hit the context limit becomes a blocker', () => {
    const { draft } = build(
      'entire-6d63c3a51594-subagent-prompt-too-long-v2.1.37.jsonl',
      null,
      260,
    );
    assert.ok(
      draft.taskState.blockers.some((b) => /subagent failed with "Prompt is too long"/.test(b)),
    );
  });
});
