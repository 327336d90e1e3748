/**
 * gitleaks' sample secrets, read from the shared fixtures (`secrets/gitleaks-samples.json`, see
 * its SOURCES.md; another repository's data, never copied here): true positives with the secret
 * each holds, false positives that must come through untouched. Empty, with one line said, when
 * the shared fixtures are missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRETS_DIR, sharedFixturesMissing } from './fixtures.ts';

export type SecretSample = {
  rule: string;
  kind: 'tp' | 'fp';
  text: string;
  /** True positives: the secret that must not survive redaction. */
  secret?: string;
};

export const SECRET_CORPUS_PATH = join(SECRETS_DIR, 'gitleaks-samples.json');

/** Skip reason for tests that need the samples, or false when they are present. */
export const SECRET_CORPUS_MISSING = sharedFixturesMissing(SECRET_CORPUS_PATH);

type SharedCorpus = {
  tps: Array<{ rule: string; text: string; secret: string }>;
  fps: Array<{ rule: string; text: string }>;
};

let cached: SecretSample[] | undefined;

/** Every sample, true positives first. */
export function loadSecretCorpus(): SecretSample[] {
  if (cached) return cached;
  if (!existsSync(SECRET_CORPUS_PATH)) return (cached = []);
  const corpus = JSON.parse(readFileSync(SECRET_CORPUS_PATH, 'utf8')) as SharedCorpus;
  cached = [
    ...corpus.tps
      .filter((s) => s.secret.length > 0)
      .map((s): SecretSample => ({ rule: s.rule, kind: 'tp', text: s.text, secret: s.secret })),
    ...corpus.fps.map((s): SecretSample => ({ rule: s.rule, kind: 'fp', text: s.text })),
  ];
  return cached;
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
