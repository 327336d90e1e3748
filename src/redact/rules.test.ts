import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadSecretCorpus } from '../../test/helpers/secret-corpus.ts';
import { OWN_RULES, scanOwnRules } from './rules.ts';

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const gen = (n: number, at = 0) =>
  Array.from({ length: n }, (_, i) => B62[(i * 7 + at) % 62]).join('');

describe('rule anchors', () => {
  test('skipping a rule whose anchors a text lacks never loses a finding', () => {
    const unanchored = OWN_RULES.map(({ anchors: _skipped, ...rule }) => rule);
    const texts = [
      ...loadSecretCorpus().map((s) => s.text),
      // Each rule's own shapes, in upper and mixed case where the rule allows it.
      `-----BEGIN RSA PRIVATE KEY-----\n${gen(64)}\n-----END RSA PRIVATE KEY-----`,
      `AWS_SECRET_ACCESS_KEY="${gen(40, 3)}"`,
      `Authorization: Bearer ${gen(32, 5)}9`,
      `AUTHORIZATION: Basic ${gen(24, 1)}`,
      `DB=postgres://admin:${gen(12, 2)}@db:5432/app`,
      `curl -u admin:${gen(12, 4)} https://x --proxy-user me:${gen(10)}`,
      `wget --http-password ${gen(12)} https://x`,
      `tool --client-secret ${gen(20, 6)} --auth-token=${gen(20, 8)} --API-KEY ${gen(20)}`,
      `PASSWORD=${gen(16, 9)} Api_Key: "${gen(24, 2)}" CREDENTIALS=${gen(20, 1)}`,
      `eyJ${gen(20)}.eyJ${gen(20)}.${gen(20)} AKIA${'ABCDEFGHIJKLMNOP'} AIza${gen(35)}`,
    ];
    for (const text of texts) {
      assert.deepEqual(scanOwnRules(text), scanOwnRules(text, unanchored), text.slice(0, 80));
    }
  });
});
