import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { truncateBytes } from './checkpoint-limits.ts';

const bytesOf = (s: string) => new TextEncoder().encode(s).length;

describe('truncateBytes', () => {
  test('leaves text within the limit alone', () => {
    assert.equal(truncateBytes('hello', 5), 'hello');
  });

  test('never exceeds the byte limit, marker included, for multi-byte text', () => {
    for (const text of ['é'.repeat(20_000), '😀'.repeat(5000), 'a€😀'.repeat(3000)]) {
      const cut = truncateBytes(text, 10_240);
      assert.ok(bytesOf(cut) <= 10_240, `${bytesOf(cut)} bytes`);
      assert.ok(bytesOf(cut) > 10_200, 'cuts close to the limit, not 10% short');
      assert.ok(cut.endsWith('… (truncated)'));
      assert.ok(!cut.includes('\uFFFD'), 'no character was split');
    }
  });
});
