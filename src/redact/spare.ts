/**
 * Which findings are spared because what they found is plainly not a secret: a documentation
 * example, a masked or typed-in value, a version string. Applied to every layer's findings
 * (the table of formats, the own rules, secretlint's) before they merge.
 * @module
 */
import { FORMAT, SPECIFIC, type RawFinding } from './findings.ts';
import {
  isMasked,
  isTyped,
  isVersionLike,
  looksMadeUp,
  SAYS_MADE_UP,
  typedRun,
} from './value-shape.ts';

/**
 * A mask right beside a value: `xoxp-123-456-789-####`, `ops_eyJzaWdu..[Redacted]`. The rule
 * stops at the mask, so what it found alone looks whole; the characters next to it say the rest
 * was hidden.
 */
const MASK_AFTER = /^[-_.]{0,3}(?:#{3,}|\*{3,}|x{4,}|•{3,}|\[redacted\]|<redacted>)/i;

function maskedBeside(text: string, f: RawFinding): boolean {
  return MASK_AFTER.test(text.slice(f.end, f.end + 16));
}

/**
 * A token of a provider's prefixed shape spared as made up: a long run of one letter or of a
 * short group, a mask or an "example" word. Counting runs (`12345678-ABCD-…`) are not enough
 * here: documentation and tests of real scanners plant such values as keys to be found.
 */
function madeUpToken(text: string, f: RawFinding): boolean {
  const value = text.slice(f.start, f.end);
  return (
    isMasked(value) ||
    SAYS_MADE_UP.test(value) ||
    isTyped(value) ||
    typedRun(value) ||
    maskedBeside(text, f)
  );
}

/**
 * Slack's tokens end in a generated segment (eight or more characters, digits among them when
 * short): secretlint's
 * slack rule takes any `xox?-` and ten characters, which also finds `xoxp-1-initial` in a
 * config's documentation and `xoxo-…-1` in a file name.
 */
function slackTokenEndsGenerated(value: string): boolean {
  if (!value.startsWith('xox')) return true;
  const last = value.split('-').at(-1) ?? '';
  return last.length >= 16 || (last.length >= 8 && /[0-9]/.test(last));
}

/**
 * Mostly one character or one short group over and over (`aaaa…`, `glc_1111…=`, `7e97e97e9…`):
 * a filler where a key goes, not a key.
 */
function isFiller(value: string): boolean {
  for (const m of value.matchAll(/([A-Za-z0-9]{1,4})\1{3,}/g))
    if (m[0].length >= 8 && m[0].length * 2 >= value.length) return true;
  return false;
}

/**
 * Every layer's findings with the plainly made-up ones dropped: a provider's own shape (the
 * table, the own token rules, secretlint's token rules) by {@link madeUpToken}; a value under a
 * credential name when it says it is made up, is masked, a filler or a version string; the
 * others (headers, URL passwords, prose) also when the value looks made up.
 */
export function spareNotSecrets(text: string, found: readonly RawFinding[]): RawFinding[] {
  return found.filter((f) => {
    const value = text.slice(f.start, f.end);
    if (f.rule === 'slack' && f.priority === SPECIFIC && !slackTokenEndsGenerated(value)) {
      return false;
    }
    if (f.priority === FORMAT) return !madeUpToken(text, f);
    if (TOKEN_RULES.has(f.rule) && madeUpToken(text, f)) return false;
    // Under a credential name a value typed by hand (`12345678-ABCD-…`, `aaaa1111…`) is still
    // the credential someone set: only words that say it is made up, or a mask, spare it there.
    if (f.rule === 'secret-assignment') {
      if (SAYS_MADE_UP.test(value) || isMasked(value) || isFiller(value)) return false;
    } else if (looksMadeUp(value) || isMasked(value)) return false;
    if (maskedBeside(text, f)) return false;
    return f.rule !== 'secret-assignment' || !isVersionLike(value);
  });
}

/** Own and secretlint rules that find a prefixed token (not a key, URL or header). */
const TOKEN_RULES = new Set([
  'anthropic',
  'openai',
  'github',
  'shopify',
  'stripe',
  'slack',
  'google-api-key',
  'google-oauth',
  'npm',
]);
