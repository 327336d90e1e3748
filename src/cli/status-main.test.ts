import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseStatusArgs } from './status-main.ts';

describe('parseStatusArgs', () => {
  test('takes the plain forms of `shim status`', () => {
    assert.deepEqual(parseStatusArgs([]), {
      transcript: undefined,
      options: { history: true },
    });
    assert.deepEqual(parseStatusArgs(['/t.jsonl', '--json', '--no-history']), {
      transcript: '/t.jsonl',
      options: { json: true, history: false },
    });
    assert.deepEqual(parseStatusArgs(['-s', 'abc']), {
      transcript: undefined,
      options: { session: 'abc', history: true },
    });
    assert.deepEqual(parseStatusArgs(['--session=abc', '--json']), {
      transcript: undefined,
      options: { session: 'abc', json: true, history: true },
    });
  });

  test('leaves help, mistakes and anything unknown to the full CLI', () => {
    for (const args of [
      ['--help'],
      ['-h'],
      ['--bogus'],
      ['a.jsonl', 'b.jsonl'],
      ['--session'],
      ['--json=yes'],
    ]) {
      assert.equal(parseStatusArgs(args), null, args.join(' '));
    }
  });
});
