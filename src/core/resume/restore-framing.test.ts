/** How a restore says what happened: compaction vs crash vs handoff, checks, files, lineage. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSessionState } from '../session.ts';
import { assessSession } from '../context/assess.ts';
import { buildCheckpoint } from '../checkpoint/build-checkpoint.ts';
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import { applyCheckpointLimits } from '../checkpoint/checkpoint-limits.ts';
import { makeTypicalCheckpoint } from '../checkpoint/checkpoint-fixture.test-helper.ts';
import { renderRestore, type RestoreRequest } from './resume-prompt.ts';
import { CLAUDE_TARGET } from './restore-target.test-helper.ts';
import type { ResumeDetection } from './resume.ts';
import { readEntry } from '../../agents/claude/entry.ts';
import { foldEntry } from '../../agents/claude/fold.ts';
import {
  assistantLine,
  buildLongSession,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
  type RawEntry,
} from '../../../test/helpers/transcript-builders.ts';
import { claudeRuleFor } from '../../agents/claude/threshold.test-helper.ts';

const detection = (reason: ResumeDetection['interruptionReason']): ResumeDetection => ({
  shouldResume: true,
  lastCheckpointId: 'x',
  interruptionReason: reason,
  timeSinceInterruption: 60_000,
  confidence: 0.9,
  explanation: 'Because.',
});

function checkpointOf(entries: RawEntry[], interrupted = false): Checkpoint {
  const state = createSessionState('claude');
  entries.forEach((raw, i) => foldEntry(state, readEntry(raw), i + 1));
  const now = state.lastActivityAt ?? 0;
  return {
    ...applyCheckpointLimits(
      buildCheckpoint({
        id: 'cp-1',
        sessionId: 's-1',
        createdAt: new Date(now).toISOString(),
        trigger: interrupted ? 'crash_recovery' : 'pre_compact',
        reason: null,
        state,
        agent: { id: 'claude', name: 'Claude Code' },
        assessment: assessSession(state, { threshold: claudeRuleFor(state), now }),
        git: null,
        transcriptPath: '/tmp/s-1.jsonl',
        interrupted,
      }),
    ),
    checkpointNumber: 4,
  };
}

function renderResumePrompt(
  c: Checkpoint,
  d: ResumeDetection | null,
  options: Partial<RestoreRequest> = {},
): string {
  return renderRestore({ checkpoint: c, detection: d, target: CLAUDE_TARGET, ...options });
}

const bash = (id: string, command: string) =>
  assistantLine({ id: `msg_${id}`, content: [toolUseBlock(id, 'Bash', { command })] });

describe('a compaction restore', () => {
  const typical = makeTypicalCheckpoint();
  const text = renderResumePrompt(typical, detection('compaction'), {
    compactSummary: `The user asked: ${typical.conversationState.userRequests[0]}`,
  });

  test('says the context was compacted, not that a session stopped or crashed', () => {
    assert.match(text, /Claude Code compacted this conversation/);
    assert.doesNotMatch(text, /crashed|without a clean end|still running|Detection \(/);
    assert.doesNotMatch(text, /Risk factors at the checkpoint/);
  });

  test("names what Claude Code's summary left out", () => {
    assert.match(
      text,
      /Claude Code's summary leaves out 2 of the user's 3 requests \(verbatim\), 3 of 3 open tasks/,
    );
  });

  test('without the summary, says what summaries tend to drop', () => {
    const plain = renderResumePrompt(typical, detection('compaction'));
    assert.match(plain, /tend to drop the user's later requests, exact task statuses/);
  });
});

describe('a crash restore built from the transcript', () => {
  const c = checkpointOf(
    [
      userPromptLine('Run the end-to-end suite and fix what breaks in the importer.'),
      bash('t1', 'npm run lint'),
      toolResultLine({ toolUseId: 't1', content: '3 problems', isError: true }),
      bash('t2', 'npm test'),
      toolResultLine({ toolUseId: 't2', content: '12 passing' }),
      bash('t3', 'npm run test:e2e'),
    ],
    true,
  );
  const text = renderResumePrompt(c, detection('crash'));

  test('names the command that was running as interrupted, verbatim, with how to run it again', () => {
    assert.match(text, /It stopped while this was running: Bash `npm run test:e2e`/);
    assert.match(
      text,
      /\*\*In flight when it stopped\*\* \(1 call that did not finish\):\n\n```sh\nnpm run test:e2e\n```/,
    );
    assert.match(
      text,
      /Started at .*, killed with the session: check what it changed, then run it again/,
    );
  });

  test('lists the last commands verbatim with how each ended, and the newest failure', () => {
    assert.match(
      text,
      /- `npm run lint` → \*\*failed\*\*\n- `npm test` → exit 0\n- `npm run test:e2e` → \*\*interrupted\*\* \(killed with the session\)/,
    );
    assert.match(
      text,
      /\*\*Newest failure\*\* \(Bash, 1 call before the checkpoint\):\n`npm run lint`\n```text\n3 problems\n```/,
    );
  });

  test('states the last result of each check, the interrupted one too', () => {
    assert.match(text, /last lint run `npm run lint`: \*\*failing\*\*/);
    assert.match(text, /last test run `npm run test:e2e`: \*\*interrupted\*\*/);
  });
});

describe('counts agree and files read cleanly', () => {
  test('the summary counts the same changed files as the Files section; "(new)" stays outside code', () => {
    const typical = makeTypicalCheckpoint();
    const c = {
      ...typical,
      fileState: { ...typical.fileState, modifiedFiles: ['src/a.ts', 'src/b.ts (new)'] },
    };
    const text = renderResumePrompt(c, null);
    assert.match(
      text,
      /\*\*Changed since the last commit\*\* \(2\): `src\/a\.ts`, `src\/b\.ts` \(new\)/,
    );
  });

  test('next steps put the task in progress before the pending ones', () => {
    const c = checkpointOf([
      userPromptLine('Do the two things.'),
      assistantLine({
        id: 'msg_todo',
        content: [
          toolUseBlock('todo', 'TodoWrite', {
            todos: [
              { content: 'First pending', status: 'pending' },
              { content: 'Now running', status: 'in_progress' },
            ],
          }),
        ],
      }),
    ]);
    assert.deepEqual(c.taskState.nextSteps, ['(in progress) Now running', 'First pending']);
  });
});

describe('a long session', () => {
  test('after four compactions the restore still carries all 60 requests by their opening words, within the hook limit', () => {
    const c = checkpointOf(buildLongSession({ requests: 60, compactEvery: 12 }));
    const text = renderResumePrompt(c, detection('compaction'));
    assert.ok(text.length <= CLAUDE_TARGET.textLimit, String(text.length));
    for (let i = 1; i <= 60; i++) {
      assert.ok(text.includes(`Request ${i}: please change module-${i} so`), `request ${i}`);
    }
    assert.match(text, /The user's 60 requests/);
    assert.match(text, /\*\*60\.\*\* \(most recent\)/);
  });

  test('inherited requests are marked as from the earlier session', () => {
    const typical = makeTypicalCheckpoint();
    const c = {
      ...typical,
      conversationState: {
        ...typical.conversationState,
        userRequests: [...typical.conversationState.userRequests, 'continue'],
        inheritedRequests: 3,
      },
    };
    const text = renderResumePrompt(c, detection('crash'));
    assert.match(text, /\*\*1\.\*\* \(earlier session\)/);
    assert.match(text, /\*\*4\.\*\* \(most recent\)/);
  });
});
