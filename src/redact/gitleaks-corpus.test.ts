/**
 * Breadth at gitleaks' level: its rules' sample secrets (read from ../shared/fixtures/secrets,
 * another repository's data; measured, never tuned to one sample's text) are redacted by shim's
 * one scanner, whichever door it is called through.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  loadSecretCorpus,
  scoreRedaction,
  SECRET_CORPUS_MISSING,
} from '../../test/helpers/secret-corpus.ts';
import { redactText, redactTextSync, redactValue } from './redact.ts';

const samples = loadSecretCorpus();
const rate = (n: number, total: number) => `${((n / total) * 100).toFixed(1)}% (${n}/${total})`;

describe('the gitleaks corpus', { skip: SECRET_CORPUS_MISSING }, () => {
  test('holds true positives of 200 or more rules, and false positives', () => {
    const covered = new Set(samples.filter((s) => s.kind === 'tp').map((s) => s.rule));
    assert.ok(covered.size >= 200, `${covered.size} rules`);
    assert.ok(samples.filter((s) => s.kind === 'fp').length >= 200);
  });

  for (const [name, redact] of [
    ['redactText', async (t: string) => (await redactText(t)).text],
    ['redactTextSync', (t: string) => redactTextSync(t).text],
  ] as const) {
    test(`${name}: ≥ 99.5% of the true positives redacted, ≤ 17% of the false positives altered`, async () => {
      const score = await scoreRedaction(samples, redact);
      const recall = score.redacted / score.truePositives;
      const altered = score.altered / score.falsePositives;
      assert.ok(
        recall >= 0.995,
        `recall ${rate(score.redacted, score.truePositives)}; missed: ${score.missed.map((s) => s.rule).join(', ')}`,
      );
      assert.ok(
        // The 5% target on these samples is withdrawn (issue 38): it rewarded sparing
        // credential-shaped values under credential names, and a redactor should err the other
        // way. What is altered is listed by `npm run bench`: 15 of the 249 are well-formed Google
        // API keys gitleaks spares by listing each one, most others are generated-looking values
        // under `*_token` / `*_key` names, and four are bare prefixed tokens (`sgp_…` with a letter
        // past hex, `task_test_…`) gitleaks files under one rule whose exact alphabet they miss.
        // Bound so that a much looser rule shows.
        altered <= 0.17,
        `altered ${rate(score.altered, score.falsePositives)}: ${score.wronglyAltered.map((s) => s.rule).join(', ')}`,
      );
    });
  }

  test('redactValue finds the same secrets inside a structure', async () => {
    const tps = samples.filter((s) => s.kind === 'tp').slice(0, 120);
    const { value } = await redactValue({ items: tps.map((s) => ({ note: s.text })) });
    const leaked = tps.filter((s, i) => value.items[i]!.note.includes(s.secret!));
    assert.ok(leaked.length <= 1, leaked.map((s) => s.rule).join(', '));
  });
});
