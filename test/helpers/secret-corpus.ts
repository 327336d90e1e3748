/**
 * The gitleaks-derived secret corpus (test/fixtures/secrets/, see its SOURCES.md): true positives
 * with the secret each holds, false positives that must come through untouched.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type SecretSample = {
  rule: string;
  kind: 'tp' | 'fp';
  text: string;
  /** True positives: the secret that must not survive redaction. */
  secret?: string;
  generated?: boolean;
};

export const SECRET_CORPUS_PATH = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'secrets',
  'gitleaks-samples.json',
);

export function loadSecretCorpus(): SecretSample[] {
  return (JSON.parse(readFileSync(SECRET_CORPUS_PATH, 'utf8')) as { samples: SecretSample[] })
    .samples;
}

export type RedactionScore = {
  truePositives: number;
  redacted: number;
  falsePositives: number;
  altered: number;
  rules: number;
  missed: SecretSample[];
  wronglyAltered: SecretSample[];
};

/** How `redact` does on the corpus: a true positive counts when its secret no longer appears. */
export async function scoreRedaction(
  samples: readonly SecretSample[],
  redact: (text: string) => string | Promise<string>,
): Promise<RedactionScore> {
  const score: RedactionScore = {
    truePositives: 0,
    redacted: 0,
    falsePositives: 0,
    altered: 0,
    rules: new Set(samples.filter((s) => s.kind === 'tp').map((s) => s.rule)).size,
    missed: [],
    wronglyAltered: [],
  };
  for (const sample of samples) {
    const out = await redact(sample.text);
    if (sample.kind === 'tp') {
      score.truePositives++;
      if (out.includes(sample.secret!)) score.missed.push(sample);
      else score.redacted++;
    } else {
      score.falsePositives++;
      if (out !== sample.text) {
        score.altered++;
        score.wronglyAltered.push(sample);
      }
    }
  }
  return score;
}
