import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeText, escapeValue, unescapeText, unescapeValue } from './text-escape.ts';

test('NUL, lone surrogates and the escape character itself go and come back', () => {
  for (const text of [
    'plain',
    'nul\u0000in\u0000the middle',
    '\u0000',
    'lone high \ud83d here',
    'lone low \ude00',
    'a pair stays 😀',
    'the escape \uE000 itself, \uE0000 and \uE000u0041',
    '\uE000e',
  ]) {
    const escaped = escapeText(text);
    assert.ok(!escaped.includes('\u0000'), text);
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(escaped), text);
    assert.equal(unescapeText(escaped), text);
  }
  assert.equal(escapeText('😀 and plain'), '😀 and plain');
});

test('keys and nested values too; JSON of it is accepted by jsonb rules', () => {
  const value = { 'k\u0000': ['x\u0000y', { deep: '\ud800' }], n: 1, b: null };
  const escaped = escapeValue(value);
  assert.ok(!JSON.stringify(escaped).includes('\\u0000'));
  assert.ok(!/\\ud[89ab]/i.test(JSON.stringify(escaped)));
  assert.deepEqual(unescapeValue(escaped), value);
});
