/**
 * What a candidate secret value looks like: generated or random, masked, a placeholder, an
 * environment variable's name, a code expression, a path. The rules' \`accept\` checks are built
 * from these, so that a rule can match broadly and still spare what is plainly not a secret.
 * @module
 */

export const hasDigit = (s: string) => /[0-9]/.test(s);
const hasUpper = (s: string) => /[A-Z]/.test(s);
const hasLower = (s: string) => /[a-z]/.test(s);

/** Mixed case with digits, or a long hex string: what generated tokens look like. */
export function looksGenerated(s: string): boolean {
  if (/^[0-9a-f]{32,}$/i.test(s)) return true;
  return hasDigit(s) && hasUpper(s) && hasLower(s);
}

/** Letters and digits, no whitespace, long enough: a generated key rather than a name. */
export function looksRandom(s: string, minLength: number): boolean {
  if (s.length < minLength || /\s/.test(s)) return false;
  return hasDigit(s) && (hasUpper(s) || hasLower(s));
}

export const ALREADY_REDACTED = '[REDACTED:';

/**
 * How much of a long value its look is judged by: a placeholder, a mask or a generated key shows
 * itself in its first 4 KB, and reading a 1 MB value whole a dozen times (each check its own
 * pass) was most of what redacting it cost.
 */
const SHAPE_WINDOW = 4096;
const headOf = (v: string) => (v.length > SHAPE_WINDOW ? v.slice(0, SHAPE_WINDOW) : v);

/**
 * Documentation keys: `sk_live_XXXXXXXXXXXXXXXX`, `ghp_xxxx…`. In a long value a run of four x
 * is chance (a random 1 MB of base64 holds dozens): there the mask must be most of it.
 */
export function isMasked(value: string): boolean {
  const s = headOf(value);
  if (s.length <= 256) return /x{4}|X{4}/.test(s);
  // Counted in a loop: `match(/[xX*]/g)` on a 1 MB value builds tens of thousands of strings.
  let mask = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 120 || c === 88 || c === 42) mask++;
  }
  return mask > s.length / 2;
}
export const notMasked = (s: string) => !isMasked(s);

/**
 * Values that stand for a secret without being one: templates, environment lookups, masks,
 * documentation placeholders, type names.
 */
export function isPlaceholder(value: string): boolean {
  const v = headOf(value).trim();
  if (v === '') return true;
  if (v.includes(ALREADY_REDACTED) || /redacted/i.test(v)) return true;
  // [YOUR-PASSWORD], [token]: a bracketed name stands for the value.
  if (/^\[[^\]]{1,40}\]$/.test(v)) return true;
  // A mask at either end: `sk-xxx`, `ghp_xxx`, `xxx-token`.
  if (/[-_.](?:x{3,}|X{3,}|\*{3,})$|^(?:x{3,}|X{3,})[-_.]/.test(v)) return true;
  // $VAR ${VAR} $(cmd) %VAR% {{var}} {var} <your key>
  if (/^(?:\$|%[A-Za-z_]|\{|<)/.test(v)) return true;
  if (/\$\{[^}]*\}|\{\{[^}]*\}\}/.test(v)) return true;
  // process.env.X, os.environ['X'], os.getenv("X"), import.meta.env.X, ENV["X"]
  if (/^(?:process\.env|os\.environ|os\.getenv|import\.meta\.env|env\[|ENV\[|getenv\()/.test(v)) {
    return true;
  }
  // masks: ****, xxxx, also inside a value (`github_pat_xxxx`, `sk-abc***`)
  if (/^(?:\*+|x{3,}|X{3,}|\.{3,}|…+|-+|_+)$/.test(v)) return true;
  if (v.length <= 256 ? /\*{3,}|xxxx|XXXX/.test(v) : isMasked(v)) return true;
  // ellipses: `sk-...` is documentation, but `Abc123Def456Ghi789…` is a secret cut short by
  // truncation, and what is left of it still has to go.
  if (/\.\.\.|…/.test(v) && v.replace(/\.{3,}|…/g, '').length < 12) return true;
  if (isTruncatedHeader(v)) return true;
  // `token:`, `api_token = `: a label or the start of another assignment, not a value (a
  // trailing `=` alone is base64's padding).
  if (/^[A-Za-z_][\w.-]*(?::|[ \t]+=)[ \t]*$/.test(v)) return true;
  if (/^(?:your|my|the|insert|enter|replace|put|add|paste)[\s_-]/i.test(v)) return true;
  if (/[\s_-](?:here|goes[\s_-]here)$/i.test(v)) return true;
  if (
    /^(?:null|undefined|none|nil|true|false|required|optional|string|str|int|number|boolean|bool|any|object|secret|password|token|key|redacted|changeme|change[_-]me|placeholder|example|dummy|test|todo|tbd|fixme|n\/a|uuid|guid|hex|base64|value|hash)$/i.test(
      v,
    )
  ) {
    return true;
  }
  return false;
}

/**
 * The head of a structured token shown cut off (`ops_eyJzaWduSW5BZGRyZXNz…`, `eyJhbGciOi…`): base64
 * of JSON that decodes to readable field names, where the secret parts of such a token (a
 * signature, a key field) come later. Only the head is shown, and it holds no random run.
 */
function isTruncatedHeader(v: string): boolean {
  const cut = /^(?:[a-z]{2,8}_)?(eyJ[A-Za-z0-9_-]{4,120})(?:\.{3}|…)$/.exec(v);
  if (cut === null) return false;
  const b64 = cut[1]!.replace(/-/g, '+').replace(/_/g, '/');
  let decoded: string;
  try {
    decoded = atob(b64.slice(0, b64.length - (b64.length % 4)));
  } catch {
    return false;
  }
  // Printable text with no long run that could itself be a key.
  return /^[\x20-\x7e]*$/.test(decoded) && !/[A-Za-z0-9+/=_-]{24,}/.test(decoded);
}

/** An environment variable name, as in `TOKEN=GITHUB_TOKEN`. */
export const isEnvName = (v: string) => /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v);

/** A code expression rather than a literal: `config.apiKey`, `self.token`. */
export const isMemberExpression = (v: string) =>
  /^[A-Za-z_$][\w$]*(?:[?!]?\.[A-Za-z_$][\w$]*)+$/.test(v);

/** A version or a version range: `^9.0.2`, `~1.4`, `>=2.0.0`, `v1.2.3-beta.1`. */
export const isVersionRange = (v: string) =>
  /^(?:[\^~]|[<>]=?|=)?v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$/.test(v);

/**
 * A path such as `~/.ssh/id_ed25519`, `./key.pem`, `/home/me/.aws/credentials` or `/srv/sa.json`.
 * Narrow on purpose: a base64 secret may start with `/` too.
 */
export function isPath(v: string): boolean {
  if (!/^[\w.@~/-]+$/.test(v)) return false;
  if (/^(?:~|\.{1,2})\//.test(v)) return true;
  if (!v.startsWith('/')) return false;
  return (
    /^\/(?:home|Users|root|etc|var|tmp|opt|usr|run|mnt|srv|data|secrets|workspace|app|Volumes)\//.test(
      v,
    ) || /\/[\w@-]*\.[a-z0-9]{1,6}$/.test(v)
  );
}

/** A value of zeros (`discord=000…`): a default written into a sample config, not a key. */
export const isTyped = (value: string) => /0{16,}$/.test(value);

/**
 * Typed rather than generated: a run of eight or more of one letter (`sntryu_aaaa…`), a short
 * group of two to four characters repeated over sixteen or more (`123123123…`), or one number
 * written three times as ids. In a random
 * 40-character token either has a chance under 1e-9. Digit runs (`511111111` as a made-up id) and
 * the letters zero bytes encode to (`A` in base64, `Q` in bech32), which tokens derived from
 * binary hold (Twitter's bearer tokens, age keys), do not count.
 */
export function typedRun(value: string): boolean {
  if (/([B-PR-Za-z])\1{7,}/.test(value)) return true;
  // One number typed three times as a token's ids: `xoxp-1234-1234-1234-…`.
  if (/(?<![0-9])([0-9]{3,})[-_.:]\1[-_.:]\1(?![0-9])/.test(value)) return true;
  for (const m of value.matchAll(/([A-Za-z0-9]{2,4})\1{3,}/g)) {
    if (m[0].length >= 16 && new Set(m[1]).size > 1) return true;
  }
  return false;
}

/** Words in a value that say it is not a real one. */
export const SAYS_MADE_UP =
  /example|here\b|here$|random|sample|placeholder|dummy|changeme|your[-_]?(?:api|key|token|secret)|#{4,}/i;

/**
 * A made-up value in documentation or tests: mostly runs of counting characters (`abcd`, `1234`,
 * `klmnopqrst`), or words that say so (`…TokenHere`, `RANDOMSTRING`, `EXAMPLE`). A real key has
 * neither: the chance of a 4-character counting run at a given place of a random key is ~1e-6.
 */
export function looksMadeUp(whole: string): boolean {
  // Made-up values are short; the check's repeated-group pattern is not linear in the length.
  if (whole.length > 256) return false;
  const value = whole;
  if (SAYS_MADE_UP.test(value)) return true;
  const alnum = value.replace(/[^A-Za-z0-9]/g, '');
  if (alnum.length < 8) return false;
  let counted = 0;
  let run = 1;
  for (let i = 1; i <= alnum.length; i++) {
    const step = i < alnum.length ? alnum.charCodeAt(i) - alnum.charCodeAt(i - 1) : 0;
    if (step === 1 && /[a-z0-9]/i.test(alnum[i]!) && /[a-z0-9]/i.test(alnum[i - 1]!)) run++;
    else {
      if (run >= 4) counted += run;
      run = 1;
    }
  }
  // A group repeated three times (`1234-1234-1234`) is a pattern someone typed, not a key.
  if (typedRun(value)) return true;
  // A run of one character is not such a group: zero bytes encode to `AAAA…` in base64.
  for (const m of value.matchAll(/([A-Za-z0-9]{4,})[^A-Za-z0-9]?\1[^A-Za-z0-9]?\1/g))
    if (new Set(m[1]).size > 1 || !/^[AQ]+$/.test(m[1]!)) return true;
  return counted / alnum.length >= 0.3;
}

/** `jjwt-jackson-0.11.2`, `SalesResults-1.2`: a name with a version, not a secret. */
export function isVersionLike(value: string): boolean {
  return /^[A-Za-z][\w.-]*?[-_@]v?\d+(?:\.\d+)+$/.test(value);
}

/** `8-4-4-4-12` hex: an id, unless its name says it is a credential. */
export const isUuid = (v: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** Bits of information per character, from the value's own character counts. */
export function entropyPerChar(v: string): number {
  // Counted in an array for the ASCII a value nearly always is (a Map per character made this
  // most of the time a long value took); anything else in a Map.
  const ascii = new Uint32Array(128);
  let others: Map<number, number> | undefined;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 128) ascii[c]!++;
    else (others ??= new Map()).set(c, (others.get(c) ?? 0) + 1);
  }
  let bits = 0;
  const add = (n: number) => {
    const p = n / v.length;
    bits -= p * Math.log2(p);
  };
  for (const n of ascii) if (n > 0) add(n);
  if (others) for (const n of others.values()) add(n);
  return bits;
}

/** Changes between a lower- and an upper-case letter: many in a random run, one per word in a name. */
function caseChanges(v: string): number {
  let changes = 0;
  for (let i = 1; i < v.length; i++) {
    const a = v[i - 1]!;
    const b = v[i]!;
    if ((/[a-z]/.test(a) && /[A-Z]/.test(b)) || (/[A-Z]/.test(a) && /[a-z]/.test(b))) changes++;
  }
  return changes;
}

/**
 * A name in code: camelCase or PascalCase words, maybe with a short number (`parseAndLogHookInput`,
 * `listSpecWorkflowRuns`, `getV2Client`). Each word is two or more letters with a vowel; a
 * generated run splits into one-letter pieces and consonant clusters.
 */
export function isIdentifierLike(v: string): boolean {
  // Words are told apart by case: `omf115ippu5uol` has none to tell.
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(v) || !/[a-z][A-Z]/.test(v)) return false;
  const words = v.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? [];
  if (words.length < 2 || words.join('') !== v) return false;
  return words.every((w) =>
    /^\d+$/.test(w)
      ? w.length <= 4
      : w.length >= 2 && /[aeiouy]/i.test(w) && !/[A-Z]{2}[a-z]/.test(w),
  );
}

/**
 * Pieces a name of words has not, though each has a vowel (`xa7QE31goPaNe4`, `tuv5Xpdpaoxt`):
 * mostly pieces of one or two letters, or a piece opening on four consonants, as no word does.
 */
function isChoppedRun(v: string): boolean {
  const words = v.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? [];
  const short = words.filter((w) => w.length <= 2).length;
  return (
    (words.length >= 3 && short * 2 >= words.length) ||
    words.some((w) => /^[b-df-hj-np-tv-xz]{4}/i.test(w))
  );
}

/**
 * What a generated key looks like, for a value standing where a credential stands under a name
 * that does not make it one alone (`key`, `auth`, a product's name) or in prose: one run of
 * token characters, `minLength` or more, not a word, path, URL, e-mail address, version, date or
 * UUID, with letters and digits (or letters of both cases changing often, as no name does), and
 * varied enough (entropy) not to be a pattern typed by hand.
 */
export function looksKeyLike(v: string, minLength = 16): boolean {
  if (v.length < minLength || v.length > 8192 || !/^[A-Za-z0-9_+/=.~:@$!*#%^&,-]+$/.test(v))
    return false;
  if (v.includes('://') || isUuid(v) || isPath(v) || isVersionLike(v)) return false;
  if (isIdentifierLike(v)) return false;
  if (/^[\w.+-]+@[\w-]+\.[\w.-]+$/.test(v)) return false;
  if (/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?/.test(v)) return false;
  // A dotted or slashed name: `com.example.app`, `org/repo`, `v1.2.3`, `a.b.c.d`.
  if (/^[a-z][a-z0-9-]*(?:[./][a-z][a-z0-9-]*)+$/i.test(v) && !/\d/.test(v)) return false;
  const digits = (v.match(/\d/g) ?? []).length;
  const letters = (v.match(/[A-Za-z]/g) ?? []).length;
  if (v.length <= 256 && entropyPerChar(v) < 3) return false;
  if (digits > 0 && letters > 0) {
    // Words joined by one separator with a number: `build_2024_release`, `my-app-v2-staging`.
    const parts = v.split(/[_.-]/);
    if (parts.length >= 2 && parts.every((p) => /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+|\d{1,4})$/.test(p)))
      return false;
    return true;
  }
  if (letters === v.length) return v.length >= 20 && caseChanges(v) >= v.length / 4;
  // Digits alone: a long number is an id or a PIN only with a credential name.
  return false;
}

/**
 * A value that cannot be ordinary text, so that finding it again anywhere in a session is
 * finding the secret (./secret-memory.ts): 10 or more characters in one run, not a placeholder
 * or a path, and digits with letters or symbols, or 12 or more digits, or 16 or more letters
 * of both cases changing often.
 */
export function isDistinctive(value: string): boolean {
  // No whitespace in the whole value: a remembered value never spans two strings (redact.ts).
  if (value.length < 10 || /[\s\0]/.test(value) || value.includes(ALREADY_REDACTED)) return false;
  const v = headOf(value);
  if (isPlaceholder(v) || isPath(v) || isUuidOfZeros(v)) return false;
  if (isVersionLike(v) || isVersionRange(v) || v.includes('://')) return false;
  if (isIdentifierLike(v) && !isChoppedRun(v)) return false;
  // `localhost:5432`, `ada@acme.test`, `2026-02-01T10:00`, `build_2024_release`.
  if (/^[A-Za-z][\w.-]*:\d{1,5}$|^[\w.+-]+@[\w-]+\.[\w.-]+$|^\d{4}-\d{2}-\d{2}/.test(v))
    return false;
  if (v.split(/[_.-]/).every((p) => /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+|\d{1,4})$/.test(p)))
    return false;
  const digits = /\d/.test(v);
  const letters = /[A-Za-z]/.test(v);
  const symbols = /[^A-Za-z0-9]/.test(v);
  if (!letters) return digits && v.length >= 12 && !/^(\d)\1+$/.test(v);
  if (digits) return entropyPerChar(v) >= 2.5;
  // Hex parted by a symbol: `cafebabe:deadbeef` (Sidekiq), `3f2a…-…`.
  if (/^[0-9a-f]{16,}$/i.test(v.replace(/[^A-Za-z0-9]/g, ''))) return true;
  if (symbols) return v.length >= 12 && /[A-Z]/.test(v) && /[a-z]/.test(v);
  return v.length >= 16 && caseChanges(v) >= v.length / 4;
}

const isUuidOfZeros = (v: string) => /^[0-]+$/.test(v);
