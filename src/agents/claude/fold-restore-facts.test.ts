/** What the fold keeps for restores: every request, the last check results, the last content line. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSessionState, LIMITS, type SessionState } from '../../core/session.ts';
import {
  assistantLine,
  buildLongSession,
  compactBoundaryLine,
  compactSummaryLine,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
  type RawEntry,
} from '../../../test/helpers/transcript-builders.ts';
import { readEntry } from './entry.ts';
import { foldEntry } from './fold.ts';

function foldAll(entries: RawEntry[]): SessionState {
  const state = createSessionState();
  entries.forEach((raw, i) => foldEntry(state, readEntry(raw), i + 1));
  return state;
}

const bash = (id: string, command: string) =>
  assistantLine({ id: `msg_${id}`, content: [toolUseBlock(id, 'Bash', { command })] });

describe('requests across compactions', () => {
  it('keeps every request by its opening words, the first in full, through four compactions', () => {
    const state = foldAll(buildLongSession({ requests: 60, compactEvery: 12 }));
    assert.equal(state.compactionCount, 4);
    assert.equal(state.requestLog.length, 60);
    assert.equal(state.prompts.length, LIMITS.prompts, 'the full-text ring stays bounded');
    assert.match(state.firstPrompt?.text ?? '', /^Request 1: /);
    assert.ok((state.firstPrompt?.text.length ?? 0) > LIMITS.requestLogChars);
    state.requestLog.forEach((r, i) => assert.ok(r.text.startsWith(`Request ${i + 1}: `)));
    assert.ok(state.requestLog.every((r) => r.text.length <= LIMITS.requestLogChars));
  });

  it('past the limit drops the second-oldest, never the first', () => {
    const state = foldAll(
      buildLongSession({
        requests: LIMITS.requestLog + 5,
        compactEvery: 1000,
        requestText: (i) => `ask ${i}`,
      }),
    );
    assert.equal(state.requestLog.length, LIMITS.requestLog);
    assert.equal(state.requestLog[0]?.text, 'ask 0');
    assert.equal(state.requestLog[1]?.text, 'ask 6');
    assert.equal(state.promptCount, LIMITS.requestLog + 5);
  });
});

describe('check commands', () => {
  it('keeps the last result of each kind, with the end of a failing output', () => {
    const long = `${'x'.repeat(5000)}\nFAIL src/a.test.ts\n1 failed, 11 passed`;
    const state = foldAll([
      userPromptLine('make the tests pass'),
      bash('t1', 'npm test'),
      toolResultLine({ toolUseId: 't1', content: long, isError: true }),
      bash('l1', 'npx eslint .'),
      toolResultLine({ toolUseId: 'l1', content: 'ok' }),
      bash('t2', 'cd app && npm test 2>&1 | tail -5'),
      toolResultLine({ toolUseId: 't2', content: '12 passed' }),
      bash('g1', 'git commit -m "fix the test"'),
      toolResultLine({ toolUseId: 'g1', content: '[main abc] fix' }),
    ]);
    assert.deepEqual(
      state.checks.map((c) => [c.kind, c.command, c.success]),
      [
        ['lint', 'npx eslint .', true],
        ['test', 'cd app && npm test 2>&1 | tail -5', true],
      ],
    );
  });

  it('a failing run keeps where the runner printed its verdict', () => {
    const state = foldAll([
      bash('t1', 'pytest -q'),
      toolResultLine({
        toolUseId: 't1',
        content: `${'.'.repeat(4000)}\nE assert 1 == 2\n1 failed in 0.1s`,
        isError: true,
      }),
    ]);
    assert.equal(state.checks[0]?.success, false);
    assert.match(state.checks[0]?.output ?? '', /1 failed in 0\.1s$/);
    assert.ok((state.checks[0]?.output.length ?? 0) <= LIMITS.checkOutputChars);
  });
});

describe('the last content line', () => {
  it('moves with prompts, responses and tool results, not with compaction bookkeeping', () => {
    const state = foldAll([
      userPromptLine('go'),
      bash('t1', 'echo hi'),
      toolResultLine({ toolUseId: 't1', content: 'hi' }),
      compactBoundaryLine({ trigger: 'auto', preTokens: 160_000 }),
      compactSummaryLine('went'),
    ]);
    assert.equal(state.lastContentLine, 3);
  });
});
