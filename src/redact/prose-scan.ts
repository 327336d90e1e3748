/**
 * Secrets introduced in words: "your API key is 7c1e…", "use this token: …", "the password for
 * the staging db is hunter2!", "here's my GitHub PAT ghp_…". A credential word, a few words
 * that lead up to a value (ending in `is`, `:`, `=`, `->`), then one run of token characters.
 * Prose names nothing for sure, so the value must look generated (./value-shape.ts
 * `looksKeyLike`); after a password word it may be shorter, but must hold a digit or a symbol
 * (`hunter2!`), which the words of a sentence do not.
 * @module
 */
import { GENERIC, type RawFinding } from './findings.ts';
import { isPath, isPlaceholder, isUuid, looksKeyLike, isVersionLike } from './value-shape.ts';

/** A credential word (group 1), as a sentence writes it. */
const WORD = new RegExp(
  String.raw`\b(api[ _-]?keys?|access[ _-]?keys?|secret[ _-]?keys?|private[ _-]?keys?|keys?|tokens?|secrets?|passwords?|passphrases?|passwd|pwd|pin|credentials?|creds|pat)\b`,
  'gi',
);

/** One run of token characters, maybe quoted: the value (group 1). */
const VALUE = String.raw`["'\x60]?([A-Za-z0-9_+/=.~:@$!*#%^-]{6,4096})`;

/** Sticky after the word: a lead of at most 48 characters ending in `:`, `=`, `is`, … */
const INTRODUCED = new RegExp(
  String.raw`[^\n\0:="'\x60[\]{}()<>;|@/\\]{0,48}?(?::|=|->|→|\b(?:is|was|are|were|be|as)\b[ \t]*:?)[ \t]*` +
    VALUE,
  'dyi',
);
/** Sticky after the word: the value right after it (`the token ghp_…`). */
const DIRECT = new RegExp(String.raw`[ \t]+` + VALUE, 'dy');

const PASSWORD_WORD = /^(?:passwords?|passphrases?|passwd|pwd|pin)$/i;

/** Words that end a lead without being the value: "the token is expired", "key is missing". */
const NOT_A_VALUE =
  /^(?:missing|required|invalid|expired|revoked|rotated|wrong|incorrect|correct|empty|undefined|correctly|available|configured|stored|hidden|provided|needed|optional|generated|different|changed|updated|deprecated|disabled|enabled|present|set|unset|null|none|true|false|ok|okay)$/i;

/** Trailing punctuation of a sentence, not of the value. */
const TRAILING = /[.,;:!?)\]}'"`]+$/;

function acceptProse(word: string, introduced: boolean, raw: string): boolean {
  const value = raw.replace(TRAILING, '');
  if (value.length < 6 || NOT_A_VALUE.test(value) || isPlaceholder(value)) return false;
  if (isPath(value) || isVersionLike(value) || isUuid(value)) return false;
  if (value.includes('://') || value.startsWith('//')) return false;
  // "tokens: 4096", "key 12": counts and settings.
  if (/^\d+(?:[.,]\d+)?[kKmM%]?$/.test(value) && value.length < 12) return false;
  if (PASSWORD_WORD.test(word) && introduced) {
    // `hunter2!`, `S3cure#pw`: a digit or symbol among letters, in one run.
    return looksKeyLike(value, 8) || (/[A-Za-z]/.test(value) && /[\d!@#$%^&*]/.test(value));
  }
  return looksKeyLike(value, introduced ? 12 : 16);
}

export function scanProse(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  WORD.lastIndex = 0;
  for (let w = WORD.exec(text); w !== null; w = WORD.exec(text)) {
    // The rule's name inside an earlier marker: `[REDACTED:bearer-token]`.
    if (/\[REDACTED:[\w-]*$/.test(text.slice(Math.max(0, w.index - 40), w.index))) continue;
    const after = w.index + w[0].length;
    let found: [number, number] | undefined;
    for (const [pattern, introduced] of [
      [INTRODUCED, true],
      [DIRECT, false],
    ] as const) {
      pattern.lastIndex = after;
      const m = pattern.exec(text);
      const range = m?.indices?.[1];
      if (m === null || range === undefined) continue;
      if (!acceptProse(w[1] ?? '', introduced, m[1] ?? '')) continue;
      found = [range[0], range[0] + (m[1] ?? '').replace(TRAILING, '').length];
      break;
    }
    if (found === undefined) continue;
    findings.push({ rule: 'secret-in-prose', start: found[0], end: found[1], priority: GENERIC });
    WORD.lastIndex = Math.max(WORD.lastIndex, found[1]);
  }
  return findings;
}
