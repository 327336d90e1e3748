import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  clip,
  LOOP_SUMMARY_MAX_CHARS,
  LOOP_SUMMARY_TRUNCATION_NOTICE,
  renderLoopSummary,
  type LoopSummaryInput,
} from './loop-summary.ts';

const base = (over: Partial<LoopSummaryInput> = {}): LoopSummaryInput => ({
  goal: 'Make the parser tests pass and document the grammar.',
  iteration: 4,
  maxIterations: 20,
  restarts: 1,
  maxRestarts: 3,
  reason: 'context_exhaustion',
  reasonDetail: null,
  contextPercent: 72.44,
  sessionId: '4d5611e5-1111-2222-3333-444455556666',
  checkpointId: 'cp-42',
  testStatus: {
    command: 'npm test',
    passed: false,
    outputTail: 'not ok 3 - parses nested lists\nAssertionError: expected 3 to equal 4',
  },
  filesChanged: ['src/parser.ts', 'docs/grammar.md'],
  errorPatterns: [
    {
      signature: 'AssertionError: expected N to equal N',
      count: 3,
      example: 'expected 3 to equal 4',
    },
  ],
  recentLog: ['iteration 3: 2 tests fail', 'iteration 4: 1 test fails'],
  ...over,
});

const HEADINGS = [
  '## Goal',
  '## Status',
  '## Files Modified',
  '## Error Patterns',
  '## Test Status',
  '## Recent Log',
];

const assertSectionsInOrder = (summary: string): void => {
  let from = -1;
  for (const heading of HEADINGS) {
    const at = summary.indexOf(`${heading}\n`);
    assert.ok(at > from, `${heading} missing or out of order in:\n${summary}`);
    from = at;
  }
};

/** The body of one section: the text between its heading and the next. */
const section = (summary: string, heading: string): string => {
  const start = summary.indexOf(`${heading}\n`) + heading.length + 1;
  const next = summary.indexOf('\n\n## ', start);
  return summary.slice(start, next < 0 ? undefined : next);
};

describe('renderLoopSummary', () => {
  test('renders every section in order with the goal, iteration, files, errors and tests', () => {
    const summary = renderLoopSummary(base());
    assertSectionsInOrder(summary);
    assert.ok(summary.startsWith('## Goal\nMake the parser tests pass'));
    assert.match(section(summary, '## Status'), /Iteration 4 of 20; restarts 1 of 3/);
    assert.match(section(summary, '## Files Modified'), /^- src\/parser\.ts\n- docs\/grammar\.md$/);
    assert.match(section(summary, '## Error Patterns'), /3× AssertionError: expected N to equal N/);
    assert.match(section(summary, '## Test Status'), /`npm test`: FAILED/);
    assert.match(section(summary, '## Test Status'), /expected 3 to equal 4/);
    assert.equal(
      section(summary, '## Recent Log'),
      '- iteration 3: 2 tests fail\n- iteration 4: 1 test fails',
    );
  });

  test('says why in plain words, with the context percent', () => {
    const status = section(renderLoopSummary(base()), '## Status');
    assert.match(status, /the context reached 72\.4% of the auto-compact threshold/);
    const unknown = section(renderLoopSummary(base({ contextPercent: null })), '## Status');
    assert.match(unknown, /the context neared the auto-compact threshold/);
  });

  test('every restart reason has its own wording, and the detail is appended', () => {
    const why = (reason: LoopSummaryInput['reason'], detail: string | null = null): string =>
      section(renderLoopSummary(base({ reason, reasonDetail: detail })), '## Status');
    assert.match(
      why('stuck', 'The last 3 iterations changed no files.'),
      /looked stuck.*\(The last 3 iterations changed no files\.\)/,
    );
    assert.match(why('crash', 'exit code 1'), /exited unexpectedly \(exit code 1\)/);
    assert.match(why('timeout'), /ran past its time limit/);
    assert.match(why('resume'), /resumed after it had stopped/);
    assert.match(why('bogus' as LoopSummaryInput['reason']), /Why this restart: unknown/);
  });

  test('points at the full state: shim show and shim resume --print', () => {
    const status = section(renderLoopSummary(base()), '## Status');
    assert.match(status, /`shim show cp-42`/);
    assert.match(status, /`shim resume --print --session 4d5611e5-1111-2222-3333-444455556666`/);
  });

  test('without ids there is no hint, and ids cannot smuggle shell syntax into the hint', () => {
    const none = section(
      renderLoopSummary(base({ sessionId: null, checkpointId: null })),
      '## Status',
    );
    assert.match(none, /Previous session: unknown; checkpoint: none/);
    assert.doesNotMatch(none, /shim show|shim resume/);
    const nasty = renderLoopSummary(base({ checkpointId: 'cp-1; rm -rf ~ `x`' }));
    assert.match(nasty, /`shim show cp-1rm-rfx`/);
    const long = section(
      renderLoopSummary(base({ sessionId: 's'.repeat(65), checkpointId: 'c'.repeat(64) })),
      '## Status',
    );
    assert.match(long, /Previous session: unknown; checkpoint: `c{64}`/);
    assert.match(long, /Full state: `shim show c{64}`$/);
  });

  test('empty sections say "none"', () => {
    const summary = renderLoopSummary(
      base({ goal: '', filesChanged: [], errorPatterns: [], testStatus: null, recentLog: [] }),
    );
    assertSectionsInOrder(summary);
    for (const heading of [
      '## Goal',
      '## Files Modified',
      '## Error Patterns',
      '## Test Status',
      '## Recent Log',
    ]) {
      assert.equal(section(summary, heading), 'none', heading);
    }
  });

  test('test status: passed, not run yet, and no output', () => {
    const passed = renderLoopSummary(
      base({ testStatus: { command: 'npm test', passed: true, outputTail: '' } }),
    );
    assert.equal(section(passed, '## Test Status'), '- `npm test`: passed');
    const notRun = renderLoopSummary(
      base({ testStatus: { command: 'make check', passed: null, outputTail: '  ' } }),
    );
    assert.equal(section(notRun, '## Test Status'), '- `make check`: not run yet');
  });

  test('test output with backtick fences gets a longer fence', () => {
    const summary = renderLoopSummary(
      base({ testStatus: { command: 'npm test', passed: false, outputTail: 'a\n```\nb' } }),
    );
    assert.match(section(summary, '## Test Status'), /^````\na\n```\nb\n````$/m);
  });

  test('never exceeds 2000 characters when every section is huge, and keeps every section', () => {
    const huge = base({
      goal: 'Rewrite the whole system. '.repeat(500),
      reasonDetail: 'x'.repeat(5000),
      sessionId: 's'.repeat(500),
      checkpointId: 'c'.repeat(500),
      testStatus: {
        command: 'npm test -- '.repeat(100),
        passed: false,
        outputTail: Array.from({ length: 500 }, (_, i) => `line ${i} failed`).join('\n'),
      },
      filesChanged: Array.from({ length: 300 }, (_, i) => `src/module${i}/index.ts`),
      errorPatterns: Array.from({ length: 100 }, (_, i) => ({
        signature: `Error number ${i}`.repeat(20),
        count: i,
        example: 'e'.repeat(300),
      })),
      recentLog: Array.from({ length: 1000 }, (_, i) => `log entry ${i}`),
    });
    const summary = renderLoopSummary(huge);
    assert.ok(summary.length <= LOOP_SUMMARY_MAX_CHARS, `${summary.length} chars`);
    assertSectionsInOrder(summary);
    assert.doesNotMatch(summary, /summary truncated/);
    assert.match(section(summary, '## Goal'), /\n… \(\d+ more characters\)$/);
    assert.match(section(summary, '## Files Modified'), /\n- … \d+ more$/);
    assert.match(section(summary, '## Error Patterns'), /\n- … \d+ more$/);
    // The newest log lines survive; the older ones are counted.
    const log = section(summary, '## Recent Log');
    assert.match(log, /^- … \d+ more \(older\)\n/);
    assert.match(log, /- log entry 999$/);
    // The test output keeps its tail.
    assert.match(section(summary, '## Test Status'), /line 499 failed\n```$/);
  });

  test('the "… N more" counts add up', () => {
    const files = Array.from({ length: 200 }, (_, i) => `src/file${i}.ts`);
    const summary = renderLoopSummary(base({ filesChanged: files }));
    const body = section(summary, '## Files Modified').split('\n');
    const more = Number(/… (\d+) more/.exec(body.at(-1) ?? '')?.[1]);
    assert.equal(body.length - 1 + more, 200);
    assert.equal(body[0], '- src/file0.ts');
  });

  test('a short section leaves its space to the long ones', () => {
    const summary = renderLoopSummary(
      base({ filesChanged: Array.from({ length: 200 }, (_, i) => `src/file${i}.ts`) }),
    );
    // Goal, errors, tests and log are short here, so the file list gets most of the room.
    assert.ok(section(summary, '## Files Modified').length > 1000);
    assert.ok(summary.length <= LOOP_SUMMARY_MAX_CHARS);
  });

  test('files are listed once each, one line each', () => {
    const summary = renderLoopSummary(
      base({ filesChanged: ['a.ts', 'a.ts', 'b\nc.ts', '', '  '] }),
    );
    assert.equal(section(summary, '## Files Modified'), '- a.ts\n- b c.ts');
  });

  test('error patterns are sorted by count and skip garbage entries', () => {
    const summary = renderLoopSummary(
      base({
        errorPatterns: [
          { signature: 'rare', count: 1, example: 'rare' },
          null as never,
          { signature: 'common', count: 9, example: 'common at line 3' },
          { signature: '', count: 2, example: '' },
          { signature: 'odd', count: Number.NaN, example: '' },
        ],
      }),
    );
    assert.equal(
      section(summary, '## Error Patterns'),
      '- 9× common (e.g. common at line 3)\n- 1× rare\n- ?× odd',
    );
  });

  test('garbage input never throws and still renders every section within the limit', () => {
    const garbage = [
      null,
      undefined,
      42,
      'text',
      {},
      {
        goal: 7,
        iteration: Number.NaN,
        maxIterations: -1,
        restarts: Infinity,
        maxRestarts: '3',
        reason: null,
        contextPercent: Number.NaN,
        sessionId: 12,
        checkpointId: {},
        testStatus: 'x',
        filesChanged: 'a.ts',
        errorPatterns: {},
        recentLog: [null, 3, 'ok'],
      },
    ];
    for (const input of garbage) {
      const summary = renderLoopSummary(input as unknown as LoopSummaryInput);
      assertSectionsInOrder(summary);
      assert.ok(summary.length <= LOOP_SUMMARY_MAX_CHARS);
    }
    const last = renderLoopSummary(garbage.at(-1) as unknown as LoopSummaryInput);
    assert.match(last, /Iteration \? of \?; restarts \? of \?/);
    assert.equal(section(last, '## Recent Log'), '- ok');
  });

  test('astral text stays within the limit without split pairs; the last-resort notice is fixed', () => {
    // Hundreds of maximal ids and details cannot overflow: only a goal made of astral
    // characters around the budget edge comes close. The notice text itself is fixed.
    assert.equal(LOOP_SUMMARY_TRUNCATION_NOTICE, '\n… (summary truncated at 2000 characters)');
    const emoji = renderLoopSummary(base({ goal: '😀'.repeat(3000) }));
    assert.ok(emoji.length <= LOOP_SUMMARY_MAX_CHARS);
    assert.doesNotMatch(emoji, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no split surrogate pair');
  });
});

describe('clip', () => {
  test('cuts with an ellipsis and never splits a surrogate pair', () => {
    assert.equal(clip('abcdef', 10), 'abcdef');
    assert.equal(clip('abcdef', 4), 'abc…');
    assert.equal(clip('abcdef', 0), '');
    assert.equal(clip('a😀b', 3), 'a…');
  });
});
