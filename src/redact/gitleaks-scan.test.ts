import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadSecretCorpus } from '../../test/helpers/secret-corpus.ts';
import { findKeywords, getScanner, SHORT_TEXT } from './gitleaks-scan.ts';

describe('findKeywords', () => {
  test('finds in short texts exactly what the keyword alternation finds', () => {
    const s = getScanner();
    const keywords = [...s.byKeyword.keys()];
    const texts = loadSecretCorpus().map((sample) => sample.text.toLowerCase());
    // Keywords run together, overlapping and nested (`rk_sk_`, `sk-ant-admin01`).
    texts.push(keywords.join(''), keywords.join(' '), keywords.map((k) => k + k.slice(1)).join(''));
    let checked = 0;
    for (const text of texts) {
      for (let from = 0; from < text.length; from += SHORT_TEXT) {
        const lower = text.slice(from, from + SHORT_TEXT);
        const expected = [...lower.matchAll(s.keywords)].map((m) => [m[0], m.index]);
        assert.deepEqual(findKeywords(s, lower), expected, lower.slice(0, 80));
        checked += expected.length;
      }
    }
    assert.ok(checked > 500, `keywords found: ${checked}`);
  });
});
