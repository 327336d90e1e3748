import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_STUCK_POLICY,
  detectStuck,
  errorSignature,
  hashText,
  type IterationFingerprint,
} from './stuck.ts';

const fp = (
  workspace: string | null,
  errorSignature: string | null = null,
  output: string | null = null,
): IterationFingerprint => ({ workspace, errorSignature, output });

describe('detectStuck', () => {
  test('the default policy: 3 of each', () => {
    assert.deepEqual(DEFAULT_STUCK_POLICY, {
      noChangeIterations: 3,
      sameErrorCount: 3,
      identicalOutputs: 3,
    });
  });

  test('an empty or short history is not stuck', () => {
    assert.deepEqual(detectStuck([]), { stuck: false });
    assert.deepEqual(detectStuck([fp('a', 'e', 'o')]), { stuck: false });
  });

  test('no_file_changes after 3 iterations that changed nothing (4 equal workspace states)', () => {
    assert.deepEqual(detectStuck([fp('a'), fp('a'), fp('a')]), { stuck: false });
    const verdict = detectStuck([fp('x'), fp('a'), fp('a'), fp('a'), fp('a')]);
    assert.deepEqual(verdict, {
      stuck: true,
      kind: 'no_file_changes',
      detail: 'The last 3 iterations changed no files.',
    });
  });

  test('the detail counts the whole streak', () => {
    const verdict = detectStuck(Array.from({ length: 7 }, () => fp('a')));
    assert.equal(verdict.stuck && verdict.detail, 'The last 6 iterations changed no files.');
  });

  test('only the trailing run counts: a change at the end resets it', () => {
    assert.deepEqual(detectStuck([fp('a'), fp('a'), fp('a'), fp('a'), fp('b')]), { stuck: false });
    assert.deepEqual(detectStuck([fp('a'), fp('a'), fp('b'), fp('a'), fp('a')]), { stuck: false });
  });

  test('unknown (null) breaks a streak', () => {
    assert.deepEqual(detectStuck([fp('a'), fp('a'), fp(null), fp('a'), fp('a')]), { stuck: false });
    assert.deepEqual(detectStuck([fp(null), fp(null), fp(null), fp(null)]), { stuck: false });
    assert.deepEqual(detectStuck([fp('a'), fp('a'), fp('a'), fp('a'), fp(null)]), { stuck: false });
  });

  test('repeated_error after the same error 3 times in a row', () => {
    assert.deepEqual(detectStuck([fp('1', 'E'), fp('2', 'E')]), { stuck: false });
    const verdict = detectStuck([fp('1', 'E'), fp('2', 'E'), fp('3', 'E')]);
    assert.equal(verdict.stuck && verdict.kind, 'repeated_error');
    assert.equal(verdict.stuck && verdict.detail, 'The same error ended the last 3 iterations: E');
  });

  test('different errors, or a success in between, do not count as repeated', () => {
    assert.deepEqual(detectStuck([fp('1', 'E'), fp('2', 'F'), fp('3', 'E')]), { stuck: false });
    assert.deepEqual(detectStuck([fp('1', 'E'), fp('2', null), fp('3', 'E')]), { stuck: false });
  });

  test('identical_output after the same output 3 times in a row', () => {
    const verdict = detectStuck([fp('1', null, 'o'), fp('2', null, 'o'), fp('3', null, 'o')]);
    assert.deepEqual(verdict, {
      stuck: true,
      kind: 'identical_output',
      detail: 'The last 3 iterations produced identical output.',
    });
    assert.deepEqual(detectStuck([fp('1', null, 'o'), fp('2', null, 'p'), fp('3', null, 'o')]), {
      stuck: false,
    });
  });

  test('a repeated error wins over no changes and identical output', () => {
    const same = fp('a', 'E', 'o');
    const verdict = detectStuck([same, same, same, same]);
    assert.equal(verdict.stuck && verdict.kind, 'repeated_error');
  });

  test('a custom policy moves the thresholds', () => {
    const policy = { noChangeIterations: 1, sameErrorCount: 5, identicalOutputs: 4 };
    assert.equal(detectStuck([fp('a'), fp('a')], policy).stuck, true);
    const errors = [fp('1', 'E'), fp('2', 'E'), fp('3', 'E'), fp('4', 'E')];
    assert.equal(detectStuck(errors, policy).stuck, false);
    assert.equal(detectStuck([...errors, fp('5', 'E')], policy).stuck, true);
  });

  test('a broken policy number switches that check off; a missing one uses the default', () => {
    const same = [fp('a', 'E', 'o'), fp('a', 'E', 'o'), fp('a', 'E', 'o'), fp('a', 'E', 'o')];
    for (const broken of [Number.NaN, Infinity, -1, 0, '3']) {
      const policy = {
        noChangeIterations: broken,
        sameErrorCount: broken,
        identicalOutputs: broken,
      } as never;
      assert.deepEqual(detectStuck(same, policy), { stuck: false }, String(broken));
    }
    // One occurrence cannot be "repeated": 1 switches the error and output checks off.
    const ones = { noChangeIterations: 0, sameErrorCount: 1, identicalOutputs: 1 };
    assert.deepEqual(detectStuck([fp('a', 'E', 'o')], ones), { stuck: false });
    // Missing fields and garbage policies fall back to the defaults.
    assert.equal(detectStuck(same, {} as never).stuck, true);
    assert.equal(detectStuck(same, null as never).stuck, true);
    // Fractions round down.
    assert.equal(
      detectStuck(same.slice(0, 3), { ...DEFAULT_STUCK_POLICY, sameErrorCount: 3.9 }).stuck,
      true,
    );
  });

  test('garbage history is not stuck and never throws', () => {
    for (const history of [null, undefined, 'abc', 42, {}]) {
      assert.deepEqual(detectStuck(history as never), { stuck: false });
    }
    assert.deepEqual(detectStuck([null, 3, 'x', {}] as never), { stuck: false });
    // Non-string fields and empty strings are unknown.
    const odd = { workspace: 1, errorSignature: '', output: [] } as never;
    assert.deepEqual(detectStuck([odd, odd, odd, odd]), { stuck: false });
  });

  test('a long error signature is cut in the detail and kept to one line', () => {
    const sig = `Error:\n${'x'.repeat(500)}`;
    const verdict = detectStuck([fp('1', sig), fp('2', sig), fp('3', sig)]);
    assert.ok(verdict.stuck);
    assert.ok(verdict.detail.length < 250);
    assert.doesNotMatch(verdict.detail, /\n/);
  });
});

describe('errorSignature', () => {
  test('the same error with different numbers, times and ids gets the same signature', () => {
    const a = errorSignature(
      '2024-05-01T10:00:00.123Z AssertionError: expected 3 to equal 4 at /tmp/tmp-8812abc/src/a.ts:42:7 (took 1234ms)',
    );
    const b = errorSignature(
      '2024-06-11T22:13:59Z AssertionError: expected 5 to equal 9 at /tmp/tmp-99zz/src/a.ts:48:1 (took 12ms)',
    );
    assert.equal(a, b);
    assert.equal(
      a,
      '<time> AssertionError: expected N to equal N at <tmp>/src/a.ts:N:N (took Nms)',
    );
  });

  test('normalizes uuids, hex ids and plain times', () => {
    assert.equal(
      errorSignature(
        'session 550e8400-e29b-41d4-a716-446655440000 commit a1b2c3d4e ptr 0xDEADBEEF at 10:04:05',
      ),
      'session <uuid> commit <hex> ptr <hex> at <time>',
    );
  });

  test('keeps words made of hex letters and error codes glued to letters', () => {
    assert.equal(errorSignature('deadbeef facade TS2345 E0425'), 'deadbeef facade TS2345 E0425');
    assert.notEqual(errorSignature('error TS2345: x'), errorSignature('error TS2322: x'));
  });

  test('normalizes macOS and Windows temp paths', () => {
    assert.equal(
      errorSignature('/var/folders/ab/cd12/T/jest_x1/a.ts and /private/var/folders/zz/yy/T/q/b.ts'),
      '<tmp>/a.ts and <tmp>/b.ts',
    );
    assert.equal(
      errorSignature('C:\\Users\\me\\AppData\\Local\\Temp\\abc123\\x.js'),
      'C:\\Users\\me\\AppData\\Local\\Temp\\<tmp>\\x.js',
    );
  });

  test('collapses whitespace and keeps the first 200 characters', () => {
    assert.equal(errorSignature('  a \n\n\t b  '), 'a b');
    assert.equal(errorSignature(`Error: ${'word '.repeat(500)}`).length, 200);
  });

  test('garbage is the empty signature', () => {
    assert.equal(errorSignature(null as never), '');
    assert.equal(errorSignature(42 as never), '');
    assert.equal(errorSignature(''), '');
  });

  test('a huge input is bounded', () => {
    assert.equal(errorSignature('x '.repeat(5_000_000)).length, 199);
  });
});

describe('hashText', () => {
  test('matches the FNV-1a 64-bit reference vectors', () => {
    assert.equal(hashText(''), 'cbf29ce484222325');
    assert.equal(hashText('a'), 'af63dc4c8601ec8c');
    assert.equal(hashText('foobar'), '85944171f73967e8');
  });

  test('hashes the UTF-8 bytes, like a BigInt reference over TextEncoder', () => {
    const reference = (text: string): string => {
      let h = 0xcbf29ce484222325n;
      for (const byte of new TextEncoder().encode(text)) {
        h ^= BigInt(byte);
        h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
      }
      return h.toString(16).padStart(16, '0');
    };
    for (const text of [
      'héllo',
      '日本語',
      '😀 emoji',
      'lone \ud800 high',
      'lone \udc00 low',
      'x'.repeat(10_000),
    ]) {
      assert.equal(hashText(text), reference(text), JSON.stringify(text.slice(0, 20)));
    }
  });

  test('always 16 lowercase hex characters; garbage hashes like the empty string', () => {
    assert.match(hashText('anything'), /^[0-9a-f]{16}$/);
    assert.equal(hashText(null as never), hashText(''));
  });

  test('different texts give different hashes', () => {
    assert.notEqual(hashText('a'), hashText('b'));
    assert.notEqual(hashText('ab'), hashText('ba'));
  });
});
