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
import { scrubSessionState } from '../../transcript/scrub.ts';
import { readEntry } from './entry.ts';
import { foldEntry } from './fold.ts';

function foldAll(entries: RawEntry[]): SessionState {
  const state = createSessionState('claude');
  entries.forEach((raw, i) => foldEntry(state, readEntry(raw), i + 1));
  return state;
}

const bash = (id: string, command: string) =>
  assistantLine({ id: `msg_${id}`, content: [toolUseBlock(id, 'Bash', { command })] });

describe('requests across compactions', () => {
  it('keeps every request whole (up to 1,500 characters) through four compactions', () => {
    const sessions = buildLongSession({ requests: 60, compactEvery: 12 });
    const state = foldAll(sessions);
    assert.equal(state.compactionCount, 4);
    assert.equal(state.requestLog.length, 60);
    assert.equal(state.prompts.length, LIMITS.prompts, 'the full-text ring stays bounded');
    assert.match(state.firstPrompt?.text ?? '', /^Request 1: /);
    state.requestLog.forEach((r, i) => {
      assert.ok(r.text.startsWith(`Request ${i + 1}: `));
      assert.ok(r.text.length <= 1_500);
      assert.ok(!r.text.includes('left out here'), 'whole');
    });
  });

  it('a request over 1,500 characters keeps its head and its tail, the cut said', () => {
    const long = `Please port the importer.\n${'lorem ipsum '.repeat(400)}\nAnd keep the CSV header check.`;
    const state = foldAll([userPromptLine(long)]);
    const kept = state.requestLog[0]?.text ?? '';
    assert.ok(kept.length <= 1_500, String(kept.length));
    assert.ok(kept.startsWith('Please port the importer.'));
    assert.ok(kept.endsWith('And keep the CSV header check.'));
    assert.match(kept, /\n\[… [\d,]+ characters of this request left out here …\]\n/);
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

describe('where the session was: its commands and newest failure', () => {
  it('keeps the last distinct commands verbatim, newest last, with how each ended', () => {
    const state = foldAll([
      userPromptLine('fix the build'),
      bash('c1', 'npm run build'),
      toolResultLine({
        toolUseId: 'c1',
        content: 'Exit code 2\nsrc/a.ts(3,1): error TS2304',
        isError: true,
      }),
      bash('c2', 'grep -n "Foo" src/a.ts'),
      toolResultLine({ toolUseId: 'c2', content: '3:Foo' }),
      bash('c3', 'npm run build'),
      toolResultLine({ toolUseId: 'c3', content: 'built' }),
      bash('c4', 'npm test -- --watch=false'),
    ]);
    assert.deepEqual(
      state.commands.map((c) => [c.command, c.status, c.exitCode]),
      [
        ['grep -n "Foo" src/a.ts', 'ok', 0],
        ['npm run build', 'ok', 0],
        ['npm test -- --watch=false', 'running', null],
      ],
      'a command run again moves to the end; the last one has no result yet',
    );
    assert.equal(state.lastFailure?.tool, 'Bash');
    assert.equal(state.lastFailure?.target, 'npm run build');
    assert.equal(state.lastFailure?.exitCode, 2);
    assert.match(state.lastFailure?.output ?? '', /^Exit code 2\nsrc\/a\.ts/);
  });

  it('a call the user turned down or interrupted is no failure; any other error is, with its target', () => {
    const state = foldAll([
      assistantLine({
        id: 'msg_e',
        content: [
          toolUseBlock('e1', 'Edit', { file_path: '/p/a.ts', old_string: 'x', new_string: 'y' }),
        ],
      }),
      toolResultLine({
        toolUseId: 'e1',
        content: '<tool_use_error>String to replace not found in file.</tool_use_error>',
        isError: true,
      }),
      bash('r1', 'rm -rf build'),
      toolResultLine({
        toolUseId: 'r1',
        content: "The user doesn't want to proceed with this tool use. The tool use was rejected.",
        isError: true,
      }),
      bash('r2', 'sleep 100'),
      toolResultLine({
        toolUseId: 'r2',
        content: '[Request interrupted by user for tool use]',
        isError: true,
      }),
    ]);
    assert.equal(state.lastFailure?.tool, 'Edit');
    assert.equal(state.lastFailure?.target, '/p/a.ts');
    assert.match(state.lastFailure?.output ?? '', /String to replace not found/);
    assert.deepEqual(
      state.commands.map((c) => c.status),
      ['stopped', 'stopped'],
    );
    assert.equal(state.recentTools[0]?.target, '/p/a.ts', 'a call is kept by its target');
    assert.equal(state.recentTools[0]?.kind, 'file_write');
  });

  it('a secret in a command or in the failure it printed is kept out of the state', () => {
    // Built at run time, so no scanner takes this file for a leak.
    const token = ['ghp', '_', 'Zq8rT2vLm4Xw9Kp3Nb7Hc1Jd5Fg6Sa0Ye2Ui'].join('');
    const state = foldAll([
      bash('s1', `curl -H "Authorization: token ${token}" https://api.github.com/user`),
      toolResultLine({
        toolUseId: 's1',
        content: `Exit code 22\nbad credentials ${token}`,
        isError: true,
      }),
    ]);
    state.parse.lines = 2; // as the reader counts them (foldAll folds entries, not lines)
    scrubSessionState(state);
    const kept = JSON.stringify([state.commands, state.lastFailure, state.pendingTools]);
    assert.ok(!kept.includes(token), kept);
    assert.match(state.commands[0]?.command ?? '', /^curl -H "Authorization: token /);
    assert.equal(state.lastFailure?.exitCode, 22);
  });
});
