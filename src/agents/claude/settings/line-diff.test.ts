import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diffLines } from './line-diff.ts';

const labels = { before: 'a', after: 'b' };

describe('diffLines', () => {
  test('shows added and removed lines with context in hunks', () => {
    const before = ['{', '  "a": 1,', '  "b": 2', '}'].join('\n');
    const after = ['{', '  "a": 1,', '  "b": 3,', '  "c": 4', '}'].join('\n');
    assert.equal(
      diffLines(before, after, labels, 1),
      [
        '--- a',
        '+++ b',
        '@@ -2,3 +2,4 @@',
        '   "a": 1,',
        '-  "b": 2',
        '+  "b": 3,',
        '+  "c": 4',
        ' }',
        '',
      ].join('\n'),
    );
  });

  test('a new file is all additions; equal texts give no diff', () => {
    assert.equal(
      diffLines('', 'x\ny\n', { before: '/dev/null', after: 'b' }),
      '--- /dev/null\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n',
    );
    assert.equal(diffLines('x\n', 'x\n', labels), '');
  });
});
