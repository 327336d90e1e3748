/**
 * Stuck detection for `shim loop`: the trailing run of iterations that changed no files, hit the
 * same error, or printed the same output. Works on fingerprints (hashes and normalized error
 * signatures), not on grepping text for words (frankbria/ralph-claude-code #2).
 *
 * Fail-safe: an unknown fingerprint field (null) breaks a streak, garbage history is "not
 * stuck", and a broken policy number switches that check off.
 * @module
 */

/** Hashes and signatures of one iteration; null = unknown. */
export type IterationFingerprint = {
  /** The workspace state after the iteration (e.g. a hash of `git status` + diff). */
  workspace: string | null;
  errorSignature: string | null;
  output: string | null;
};

export type StuckPolicy = {
  /** Iterations in a row that changed nothing. */
  noChangeIterations: number;
  /** Iterations in a row ending with the same error. */
  sameErrorCount: number;
  /** Iterations in a row with identical output. */
  identicalOutputs: number;
};

export const DEFAULT_STUCK_POLICY: StuckPolicy = {
  noChangeIterations: 3,
  sameErrorCount: 3,
  identicalOutputs: 3,
};

export type StuckKind = 'no_file_changes' | 'repeated_error' | 'identical_output';
export type StuckVerdict = { stuck: false } | { stuck: true; kind: StuckKind; detail: string };

const NOT_STUCK: StuckVerdict = { stuck: false };
const SIGNATURE_CHARS = 200;

/**
 * A policy field as a count: the default when absent, null (check off) when it is not a finite
 * number at least `min`. Fractions round down.
 */
function threshold(value: unknown, fallback: number, min: number): number | null {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const n = Math.floor(value);
  return n >= min ? n : null;
}

/** Length of the trailing run of one non-null value of `field`, and that value. */
function trailingRun(
  history: readonly unknown[],
  field: keyof IterationFingerprint,
): { value: string; length: number } | null {
  const last = history[history.length - 1];
  const value = readField(last, field);
  if (value === null) return null;
  let length = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    if (readField(history[i], field) !== value) break;
    length++;
  }
  return { value, length };
}

function readField(entry: unknown, field: keyof IterationFingerprint): string | null {
  if (entry === null || typeof entry !== 'object') return null;
  const value = (entry as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Checks, in this order: the same error `sameErrorCount` times in a row; no file changes for
 * `noChangeIterations` iterations (that is, `noChangeIterations + 1` equal workspace states);
 * the same output `identicalOutputs` times in a row. `history` is oldest first.
 * `sameErrorCount` and `identicalOutputs` below 2, or `noChangeIterations` below 1, switch
 * that check off.
 */
export function detectStuck(
  history: readonly IterationFingerprint[],
  policy: StuckPolicy = DEFAULT_STUCK_POLICY,
): StuckVerdict {
  if (!Array.isArray(history) || history.length === 0) return NOT_STUCK;
  const rules: Partial<Record<keyof StuckPolicy, unknown>> =
    policy !== null && typeof policy === 'object' ? policy : {};
  const sameError = threshold(rules.sameErrorCount, DEFAULT_STUCK_POLICY.sameErrorCount, 2);
  const noChange = threshold(rules.noChangeIterations, DEFAULT_STUCK_POLICY.noChangeIterations, 1);
  const identical = threshold(rules.identicalOutputs, DEFAULT_STUCK_POLICY.identicalOutputs, 2);

  if (sameError !== null) {
    const run = trailingRun(history, 'errorSignature');
    if (run && run.length >= sameError) {
      return {
        stuck: true,
        kind: 'repeated_error',
        detail: `The same error ended the last ${run.length} iterations: ${clipOneLine(run.value, 160)}`,
      };
    }
  }
  if (noChange !== null) {
    const run = trailingRun(history, 'workspace');
    if (run && run.length >= noChange + 1) {
      return {
        stuck: true,
        kind: 'no_file_changes',
        detail: `The last ${run.length - 1} iterations changed no files.`,
      };
    }
  }
  if (identical !== null) {
    const run = trailingRun(history, 'output');
    if (run && run.length >= identical) {
      return {
        stuck: true,
        kind: 'identical_output',
        detail: `The last ${run.length} iterations produced identical output.`,
      };
    }
  }
  return NOT_STUCK;
}

function clipOneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * A comparable signature of an error text: timestamps, UUIDs, hex ids, the random parts of
 * temp paths and numbers are replaced by placeholders, whitespace collapsed, and the first
 * 200 characters kept. Error codes glued to letters (TS2345, E0425) are kept: they are the
 * meaning. Not a string → ''.
 */
export function errorSignature(text: string): string {
  if (typeof text !== 'string') return '';
  return (
    text
      // Bounded input: an error's meaning is at its start.
      .slice(0, 4000)
      .replace(
        /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/gi,
        '<time>',
      )
      .replace(/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>')
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
      .replace(
        /(?:\/private)?\/(?:tmp|var\/tmp|var\/folders\/[^\s/]+\/[^\s/]+\/T)\/[^\s/:'"`)]+/g,
        '<tmp>',
      )
      .replace(/\\(?:Temp|tmp)\\[^\s\\:'"`)]+/gi, '\\Temp\\<tmp>')
      .replace(/\b0x[0-9a-f]+\b/gi, '<hex>')
      .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, '<hex>')
      .replace(/\b\d+(?:\.\d+)*(?=[a-z]{0,2}\b)/gi, 'N')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, SIGNATURE_CHARS)
      .trimEnd()
  );
}

const MASK16 = 0xffff;

/**
 * FNV-1a 64-bit over the UTF-8 bytes of `text`, as 16 lowercase hex characters. Computed on
 * four 16-bit limbs (no BigInt, fast enough for megabytes of output). Lone surrogates hash as
 * U+FFFD, as TextEncoder would encode them. Not a string → the hash of ''.
 */
export function hashText(text: string): string {
  // Offset basis 0xcbf29ce484222325, low limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const mix = (byte: number): void => {
    h0 ^= byte;
    // Multiply by the prime 0x100000001b3 = 2^40 + 0x1b3.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3;
    const t2 = h2 * 0x1b3 + (h0 << 8);
    const t3 = h3 * 0x1b3 + (h1 << 8);
    const c1 = t1 + (t0 >>> 16);
    const c2 = t2 + (c1 >>> 16);
    h0 = t0 & MASK16;
    h1 = c1 & MASK16;
    h2 = c2 & MASK16;
    h3 = (t3 + (c2 >>> 16)) & MASK16;
  };
  const input = typeof text === 'string' ? text : '';
  for (let i = 0; i < input.length; i++) {
    let code = input.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = input.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else code = 0xfffd;
    } else if (code >= 0xdc00 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x80) mix(code);
    else if (code < 0x800) {
      mix(0xc0 | (code >> 6));
      mix(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      mix(0xe0 | (code >> 12));
      mix(0x80 | ((code >> 6) & 0x3f));
      mix(0x80 | (code & 0x3f));
    } else {
      mix(0xf0 | (code >> 18));
      mix(0x80 | ((code >> 12) & 0x3f));
      mix(0x80 | ((code >> 6) & 0x3f));
      mix(0x80 | (code & 0x3f));
    }
  }
  const hex = (limb: number): string => limb.toString(16).padStart(4, '0');
  return `${hex(h3)}${hex(h2)}${hex(h1)}${hex(h0)}`;
}
