import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mentionedFiles, parsePlan } from './plan.ts';

const CHECKLIST = `# Importer rewrite

Goal: import ZEBRA-42 files without loading them whole.

## Constraints

- Node 20, no new dependencies
- Keep the CLI flags

## Work

- [x] Read the current importer (\`src/import/reader.ts\`)
- [ ] Stream the parser
  1. replace readFileSync with a stream
  2. keep the error messages
  \`\`\`ts
  - [ ] this is code, not a step
  ## neither is this
  \`\`\`
- [ ] Update the tests in test/import.test.ts

After the list: a closing note.
`;

describe('parsePlan', () => {
  test('checklist items are the steps, with everything nested under them', () => {
    const plan = parsePlan(CHECKLIST);
    assert.equal(plan.title, 'Importer rewrite');
    assert.deepEqual(
      plan.steps.map((s) => [s.index, s.title, s.kind, s.done, s.sections]),
      [
        [1, 'Read the current importer (`src/import/reader.ts`)', 'checklist', true, ['Work']],
        [2, 'Stream the parser', 'checklist', false, ['Work']],
        [3, 'Update the tests in test/import.test.ts', 'checklist', false, ['Work']],
      ],
    );
    // The nested numbered items and the code block belong to step 2, the code untouched.
    assert.match(plan.steps[1]!.body, /1\. replace readFileSync/);
    assert.match(plan.steps[1]!.body, /- \[ \] this is code, not a step\n {2}## neither is this/);
    assert.equal(plan.steps[1]!.line, 13);
  });

  test('what is not a step is the shared context every shard carries', () => {
    const { shared } = parsePlan(CHECKLIST);
    assert.match(shared, /^# Importer rewrite\n\nGoal: import ZEBRA-42/);
    assert.match(shared, /## Constraints\n\n- Node 20, no new dependencies\n- Keep the CLI flags/);
    assert.match(shared, /After the list: a closing note\./);
    assert.doesNotMatch(shared, /Stream the parser/);
  });

  test('numbered steps; bullets inside them are theirs', () => {
    const plan = parsePlan('1. First\n   - detail a\n   - detail b\n2. Second\n10. Tenth\n');
    assert.deepEqual(
      plan.steps.map((s) => [s.title, s.kind, s.body]),
      [
        ['First', 'numbered', '1. First\n   - detail a\n   - detail b'],
        ['Second', 'numbered', '2. Second'],
        ['Tenth', 'numbered', '10. Tenth'],
      ],
    );
  });

  test('without lists, the deepest work sections are the steps; context sections are shared', () => {
    const plan = parsePlan(
      [
        '# Plan',
        '## Goal',
        'Faster imports.',
        '## Phase 1',
        '### Parser',
        'Stream it.',
        '### Tests',
        'Cover it.',
        '## Phase 2: docs',
        'Write them.',
        '## Open questions',
        'None.',
      ].join('\n'),
    );
    assert.deepEqual(
      plan.steps.map((s) => [s.title, s.kind, s.sections]),
      [
        ['Parser', 'section', ['Phase 1', 'Parser']],
        ['Tests', 'section', ['Phase 1', 'Tests']],
        ['Phase 2: docs', 'section', ['Phase 2: docs']],
      ],
    );
    assert.match(plan.shared, /## Goal\nFaster imports\./);
    assert.match(plan.shared, /## Open questions\nNone\./);
  });

  test('plain bullets are steps when nothing else is; prose is one step', () => {
    assert.deepEqual(
      parsePlan('- add the flag\n- document it\n').steps.map((s) => [s.title, s.kind]),
      [
        ['add the flag', 'bullet'],
        ['document it', 'bullet'],
      ],
    );
    const prose = parsePlan('# Fix\n\nMake the importer stream its input.\n');
    assert.deepEqual(
      prose.steps.map((s) => [s.title, s.kind]),
      [['Fix', 'whole']],
    );
    assert.deepEqual(parsePlan('').steps, []);
  });

  test('a fence is closed only by a fence of its own kind', () => {
    const plan = parsePlan('- [ ] one\n  ~~~\n  ```\n  - [ ] inside\n  ~~~\n- [ ] two\n');
    assert.deepEqual(
      plan.steps.map((s) => s.title),
      ['one', 'two'],
    );
  });
});

describe('mentionedFiles', () => {
  test('backticked paths and path-like words, without line numbers or URLs', () => {
    assert.deepEqual(
      mentionedFiles(
        'Edit `src/a.ts:12`, then test/b.test.ts and ./docs/c.md; not https://x.io/a.js or `npm test`.',
      ),
      ['src/a.ts', 'test/b.test.ts', 'docs/c.md'],
    );
  });
});
