/**
 * Tokens that carry their kind in a prefix: a short lower-case word or two and `_` or `-`, then a
 * long generated run (`<vendor>_<40 random>`, `sk-<kind>-<random>`, `<vendor>_local_<random>`) —
 * the convention most providers now follow so that a leaked key can be recognised. With no entry
 * in the table of formats (./secret-formats.ts), shim still knows one by that shape alone, bare
 * in a sentence, a command or a list: the run after the prefix is 32 or more characters and looks
 * generated (./value-shape.ts `looksKeyLike`). Ids of the same convention are shorter (Claude
 * Code's `toolu_01…`, `msg_01…`, `req_01…` carry 24 or so), and a hash in one case only
 * (`build-<64 hex>`), one named as a hash (`sha512-…` in lock files) or a name made of words
 * (`widget-rhf_SponsoredProductsRemoteSearch…`, `nightly-<hex>-quarterly-export-v3`) is not a key.
 * @module
 */
import { GENERIC, type RawFinding } from './findings.ts';
import { looksKeyLike } from './value-shape.ts';

/** The prefix (group 1: one to three short lower-case words) and the run after it (group 2). */
const PREFIXED =
  /(?<![A-Za-z0-9_.-])([a-z][a-z0-9]{1,9}(?:[_-][a-z][a-z0-9]{1,9}){0,2})[_-]([A-Za-z0-9][A-Za-z0-9_-]{31,255})(?![A-Za-z0-9_+/=-])/dg;

/** A prefix that names a hash or a checksum: what follows is a digest, not a credential. */
const DIGEST =
  /(?:^|[_-])(?:sha\d*|md5|blake\d*b?|xxh\d*|crc\d*|hash|digest|checksum|sum|integrity|commit|rev)$/;

/**
 * A run that is an id rather than a key: one that opens on another word of the prefix (the prefix
 * was cut short: `run_shell_command-<time>-<hex>`), or hex in one case, nearly all of it
 * (`build-<64 hex>`, `om_x100b5daf…`), as digests and message ids are.
 */
function isIdLike(body: string): boolean {
  if (/^[a-z][a-z0-9]{1,9}[_-]/.test(body)) return true;
  const run = body.replace(/[_-]/g, '');
  if (/[a-z]/.test(run) && /[A-Z]/.test(run)) return false;
  const hex = run.replace(/[^0-9a-fA-F]/g, '').length;
  return hex >= run.length * 0.9;
}

/**
 * A name made of words (`SponsoredProductsRemoteSearchK2Click`): most of it in pieces of four or
 * more letters that can be said, as a generated run's pieces seldom are.
 */
function readsAsWords(body: string): boolean {
  let wordy = 0;
  for (const piece of body.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? [])
    if (piece.length >= 4 && /[aeiouy]/i.test(piece) && !/^[^aeiouy]{4}/i.test(piece))
      wordy += piece.length;
  return wordy >= body.length * 0.6;
}

/**
 * A name in kebab or snake case (`nightly-3f9a…-quarterly-export-v3`): two or more of the pieces
 * between its separators are words of four or more lower-case letters. A generated run that holds
 * `-` or `_` seldom has even one such piece.
 */
function isNameOfWords(body: string): boolean {
  const words = body.split(/[_-]/).filter((p) => /^[a-z]{4,}$/.test(p) && /[aeiouy]/.test(p));
  return words.length >= 2;
}

export function scanPrefixedTokens(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  PREFIXED.lastIndex = 0;
  for (let m = PREFIXED.exec(text); m !== null; m = PREFIXED.exec(text)) {
    const body = m[2]!;
    if (DIGEST.test(m[1]!) || isIdLike(body)) continue;
    if (!looksKeyLike(body, 32) || readsAsWords(body) || isNameOfWords(body)) continue;
    // `vlt_eyJzZXJ2…...`: the cut-off head of a token shown in a document, not a token.
    const after = text.slice(m.indices![2]![1], m.indices![2]![1] + 3);
    if (after === '...' || after.startsWith('…')) continue;
    findings.push({
      rule: 'prefixed-token',
      start: m.index,
      end: m.indices![2]![1],
      priority: GENERIC,
    });
  }
  return findings;
}
