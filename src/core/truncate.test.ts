import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { summarizeValue, truncate } from './truncate.ts';

/** { child: { child: … { child: 'bottom' } } }, `depth` objects deep, built without recursion. */
function nestedObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { child: 'bottom' };
  for (let i = 1; i < depth; i++) value = { child: value };
  return value;
}

function nestedArray(depth: number): unknown[] {
  let value: unknown[] = ['bottom'];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe('truncate', () => {
  test('text within the limit is returned unchanged', () => {
    assert.equal(truncate('hello', 10), 'hello');
    assert.equal(truncate('hello', 5), 'hello');
    assert.equal(truncate('', 0), '');
  });

  test('longer text is cut to exactly the limit, ending in an ellipsis', () => {
    const cut = truncate('abcdefgh', 5);
    assert.equal(cut, 'abcd…');
    assert.equal(cut.length, 5);
  });

  test('a limit of one leaves only the ellipsis', () => {
    assert.equal(truncate('abc', 1), '…');
  });

  test('a limit of zero leaves nothing', () => {
    assert.equal(truncate('abc', 0), '');
  });
});

describe('summarizeValue', () => {
  test('primitives are rendered like JSON', () => {
    assert.equal(summarizeValue(42, 100), '42');
    assert.equal(summarizeValue('hi', 100), '"hi"');
    assert.equal(summarizeValue(null, 100), 'null');
    assert.equal(summarizeValue(true, 100), 'true');
    assert.equal(summarizeValue(undefined, 100), 'undefined');
  });

  test('strings are escaped as JSON strings', () => {
    assert.equal(summarizeValue('say "hi"\n', 100), '"say \\"hi\\"\\n"');
  });

  test('small objects and arrays come out the same as JSON.stringify', () => {
    const value = { command: 'ls -la', options: { timeout: 5, paths: ['a', 'b', null] } };
    assert.equal(summarizeValue(value, 1_000), JSON.stringify(value));
    assert.equal(summarizeValue([], 100), '[]');
    assert.equal(summarizeValue({}, 100), '{}');
  });

  test('a rendering of exactly the limit is kept whole', () => {
    assert.equal(summarizeValue({ a: 1 }, 7), '{"a":1}');
  });

  test('a rendering over the limit is cut to the limit and marked with an ellipsis', () => {
    const summary = summarizeValue({ text: 'x'.repeat(100) }, 20);
    assert.equal(summary, '{"text":"xxxxxxxxxx…');
    assert.equal(summary.length, 20);
  });

  test('a cut that lands exactly on the limit is still marked', () => {
    assert.equal(summarizeValue({ a: 1, b: 2 }, 5), '{"a"…');
  });

  test('nesting beyond the depth limit is elided', () => {
    assert.equal(summarizeValue(nestedObject(4), 1_000, 2), '{"child":{"child":{…}}}');
    assert.equal(summarizeValue(nestedArray(4), 1_000, 2), '[[[…]]]');
  });

  test('the default depth limit renders six levels of nesting', () => {
    const expected = '{"child":'.repeat(6) + '{…}' + '}'.repeat(6);
    assert.equal(summarizeValue(nestedObject(20), 1_000), expected);
  });

  test('a 10,000-deep nested object is summarized without overflowing the stack', () => {
    const summary = summarizeValue(nestedObject(10_000), 200);
    assert.equal(summary, '{"child":'.repeat(6) + '{…}' + '}'.repeat(6));
  });

  test('a 10,000-deep nested array is summarized within the limit', () => {
    const summary = summarizeValue(nestedArray(10_000), 5);
    assert.equal(summary, '[[[[…');
  });

  test('a 5 MB string is cut to the limit', () => {
    const summary = summarizeValue('x'.repeat(5 * 1024 * 1024), 200);
    assert.equal(summary.length, 200);
    assert.equal(summary, `"${'x'.repeat(198)}…`);
  });

  test('a 5 MB string inside an object is cut to the limit', () => {
    const summary = summarizeValue({ content: 'y'.repeat(5 * 1024 * 1024) }, 50);
    assert.equal(summary.length, 50);
    assert.equal(summary, `{"content":"${'y'.repeat(37)}…`);
  });

  test('a million-element array stops at the limit', () => {
    const summary = summarizeValue(new Array<number>(1_000_000).fill(7), 12);
    assert.equal(summary, '[7,7,7,7,7,…');
  });

  test('a circular structure is cut off by the depth limit', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    assert.equal(
      summarizeValue(loop, 1_000, 2),
      '{"name":"loop","self":{"name":"loop","self":{…}}}',
    );
  });
});
