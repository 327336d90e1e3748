/**
 * secretlint's recommended preset alone (`@secretlint/core` + `@secretlint/secretlint-rule-
 * preset-recommend`, 11.x: the last line that runs on Node 20): the maintained rule set the
 * bench prints beside shim's own redaction, so its figures have a baseline measured in the same
 * run. shim itself no longer runs it (docs/secret-formats.md says why): a development
 * dependency, loaded only here.
 * @module
 */
import type * as SecretlintCore from '@secretlint/core';
import { applyFindings, mergeFindings, SPECIFIC, type RawFinding } from '../src/redact/findings.ts';

type SecretlintMessage = Awaited<ReturnType<typeof SecretlintCore.lintSource>>['messages'][number];

type Secretlint = (text: string) => Promise<RawFinding[]>;

const SECRETLINT_PREFIX = '@secretlint/secretlint-rule-';

/**
 * Preset rules left out: `filter-comments` would let a `secretlint-disable` comment in a
 * transcript switch redaction off; `gcp` only looks at `.json` / `.p12` files it reads itself.
 */
const SKIPPED_RULES = new Set([`${SECRETLINT_PREFIX}filter-comments`, `${SECRETLINT_PREFIX}gcp`]);

/** secretlint rule → our name for the same secret, so both layers agree on the marker. */
const SECRETLINT_NAMES: Record<string, string> = {
  aws: 'aws-secret-access-key',
  privatekey: 'private-key',
  'database-connection-string': 'connection-string',
  basicauth: 'url-credentials',
};

/** Rules that report a whole URL where only its password is secret. */
const URL_RULES = new Set(['connection-string', 'url-credentials']);

let secretlint: Promise<Secretlint> | undefined;

function loadSecretlint(): Promise<Secretlint> {
  secretlint ??= (async () => {
    const [core, preset, profiler] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ]);
    // secretlint 11 profiles every lint whether asked or not: ~56 performance marks per call
    // that are never cleared, and an observer whose work grows with all marks so far, so a
    // long-lived process slows down quadratically and leaks memory (secretlint#1633, #1653;
    // fixed by an opt-in switch only in the Node 22 line). Nothing reads the profile here.
    profiler.secretLintProfiler.mark = () => {};
    const config: SecretlintCore.SecretLintSourceOptions['options']['config'] = {
      rules: preset.rules
        .filter((rule) => !SKIPPED_RULES.has(rule.meta.id))
        .map((rule) => ({ id: rule.meta.id, rule, options: {} })),
    };
    return async (text: string) => {
      const result = await core.lintSource({
        source: { content: text, filePath: 'shim-redact.txt', ext: '.txt', contentType: 'text' },
        options: { config, noPhysicFilePath: true, maskSecrets: false },
      });
      // secretlint drops a leading BOM before scanning: its offsets start one later.
      const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
      return result.messages.map((message) => toFinding(text, message, shift));
    };
  })();
  // A failed load is retried by the next call rather than cached.
  secretlint.catch(() => (secretlint = undefined));
  return secretlint;
}

function ruleName(message: SecretlintMessage): string {
  const id = message.ruleId.startsWith(SECRETLINT_PREFIX)
    ? message.ruleId.slice(SECRETLINT_PREFIX.length)
    : message.ruleId;
  return SECRETLINT_NAMES[id] ?? id;
}

/**
 * A secretlint message as a finding, with its range repaired where the rule reports it wrongly:
 * aws's secret-access-key check (like npm's x-oauth-basic one, not reached here) takes the start
 * of the whole match with the length of the secret, which covers the key name and leaves most of
 * the secret, so the range is found again from the secret the message carries. URL rules report
 * the whole URL and are narrowed to its password.
 */
function toFinding(text: string, message: SecretlintMessage, shift: number): RawFinding {
  const rule = ruleName(message);
  let start = message.range[0] + shift;
  let end = message.range[1] + shift;
  const reported = text.slice(start, end);
  const data = Object.values((message.data ?? {}) as Record<string, unknown>).filter(
    (v): v is string => typeof v === 'string' && v.length >= 8,
  );
  if (data.length > 0 && !data.includes(reported)) {
    const secret = data.reduce((a, b) => (b.length > a.length ? b : a));
    const at = text.indexOf(secret, start);
    if (at !== -1 && at - start <= 256) {
      start = at;
      end = at + secret.length;
    }
  }
  if (URL_RULES.has(rule)) {
    const password = /^[a-z][a-z0-9+.:-]*:\/\/[^:/\s@]*:([^@/\s]+)@/i.exec(text.slice(start, end));
    if (password?.[1] !== undefined) {
      end = start + password[0].length - 1;
      start = end - password[1].length;
    }
  }
  return { rule, start, end, priority: SPECIFIC };
}

/** secretlint's preset alone over `text`. */
export async function redactWithSecretlintOnly(text: string): Promise<string> {
  if (text.length < 7) return text;
  const lint = await loadSecretlint();
  return applyFindings(text, mergeFindings(await lint(text)));
}
