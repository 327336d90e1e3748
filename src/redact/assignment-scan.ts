/**
 * Secrets assigned to a name that says what they are: `PASSWORD=…`, `"apiKey": "…"`, `token: …`,
 * `db_pass2 = '…'`, and typed declarations — `const fastlyKey string = "…"`, `apiKey: string =
 * "…"`, `const API_KEY: &str = "…"` — in every language that writes a name, maybe a type, an
 * operator and a value. Found where a credential word stands in a name right before an operator,
 * then read as a whole assignment; the name decides how sure (./key-names.ts), the value is kept
 * unless it is code, a path, a placeholder or (for weak names) not generated-looking.
 * @module
 */
import { GENERIC, type RawFinding } from './findings.ts';
import { keyStrength } from './key-names.ts';
import {
  isEnvName,
  isMemberExpression,
  isPath,
  isPlaceholder,
  isUuid,
  isVersionRange,
  looksKeyLike,
} from './value-shape.ts';

/** Stems of the credential words (./key-names.ts), as they occur inside a name. */
export const CREDENTIAL_STEMS = [
  'pass',
  'pw',
  'secret',
  'token',
  'key',
  'auth',
  'cred',
  'api',
  'salt',
  'cookie',
  'session',
  'sig',
  'hmac',
  'bearer',
  'jwt',
  'pat',
  'otp',
  'mnemonic',
  'encrypt',
  'phrase',
  // Bundler's per-host credentials (`BUNDLE_GEMS__ACME__IO`, ./key-names.ts).
  'bundle_',
] as const;

/** A type between a name and its `=`: `string`, `String`, `&'static str`, `std::string`, `[]byte`. */
const TYPE = String.raw`(?:[ \t]*:[ \t]*|[ \t]+)(?:const[ \t]+)?[&*]?(?:'static[ \t]+)?(?:\[\])?[A-Za-z_][\w.:<>\[\]]{0,40}[?*]?`;

/**
 * Where to look: a stem of a credential word, in any case; the name around it must end right
 * before an operator (maybe after a closing quote or a type). Scanning for these first and
 * reading an assignment only there is several times faster than one pattern over all the text.
 */
const STEM_HIT = new RegExp(CREDENTIAL_STEMS.join('|'), 'gi');
/**
 * Stems that end joined words anywhere (`dbpass`, `ADMINPASSWORD`, `accesstoken`,
 * `SUMOLOGIC_ACCESSKEY`); the name's words then decide (./key-names.ts: `monkey` is none).
 */
const ANYWHERE = new Set(['pass', 'pwd', 'secret', 'token', 'credential', 'key']);

/**
 * Whether the stem found at `at` starts a credential word: those of {@link ANYWHERE} always,
 * the others only where a word starts — the name's start or after a separator (`key`, `KEY`,
 * `api_key`), or a capital after a lower-case letter or digit (`apiKey`, `weatherApi`) — so that
 * `design`, `path` and `monkey` are passed over.
 */
function startsWord(text: string, at: number, stem: string): boolean {
  if (ANYWHERE.has(stem.toLowerCase())) return true;
  const before = at > 0 ? text.charCodeAt(at - 1) : 0;
  const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (!isLetter(before)) return true;
  const first = text.charCodeAt(at);
  const upper = first >= 65 && first <= 90;
  const lowerBefore = (before >= 97 && before <= 122) || (before >= 48 && before <= 57);
  return upper && lowerBefore && stem.slice(1) === stem.slice(1).toLowerCase();
}

/** Sticky at the end of a name: what may stand between it and its operator, then the operator. */
const OPERATOR_AHEAD = new RegExp(
  String.raw`(?:\\?["'])?(?:${TYPE})?[ \t]*(?::|\?{0,2}=(?![=~]))`,
  'y',
);

/**
 * Sticky at the start of a name: name [type] [=:] value, the name optionally quoted (also
 * JSON-escaped `\"key\"`) and the value double-, single- or backtick-quoted, escaped-quoted, or
 * bare; a type only before a quoted literal (`token: r_q8v=x` is YAML, not a declaration).
 * The operator may be Make's `?=`/`::=`/`:::=` or JavaScript's `??=`.
 * Groups: 1 name, 2 type, 3 operator, 4 "…", 5 '…', 6 `…`, 7 \"…\", 8 bare.
 */
const ASSIGNMENT = new RegExp(
  String.raw`([A-Za-z0-9_.\-]{1,80})(?:\\?["'])?(${TYPE}(?=[ \t]*(?::=|=(?![=>~]))[ \t]*\\?["'\x60]))?[ \t]*(:{1,3}=|\?{1,2}=|=(?![=>~])|:(?!:)|=>)[ \t]*` +
    String.raw`(?:"((?:[^"\\\n\0]|\\[^\n\0])+)"|'([^'\n\0]+)'|` +
    '`([^`\\n\\0]+)`' +
    String.raw`|\\"([^"\\\n\0]+)\\"|([^\s'"` +
    '`' +
    String.raw`;,&|<>(){}\[\]\\\0]+))`,
  'dy',
);
const VALUE_GROUPS = [4, 5, 6, 7, 8] as const;
const MAX_KEY = 80;

/** [A-Za-z0-9_.-] */
function isKeyChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}

export function scanAssignments(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  STEM_HIT.lastIndex = 0;
  for (let hit = STEM_HIT.exec(text); hit !== null; hit = STEM_HIT.exec(text)) {
    if (!startsWord(text, hit.index, hit[0])) continue;
    // The rest of the name: a stem is inside it, anywhere (`db_pass2`, `tokenValue`).
    let keyEnd = hit.index + hit[0].length;
    while (keyEnd < text.length && isKeyChar(text.charCodeAt(keyEnd))) {
      keyEnd++;
      if (keyEnd - hit.index > MAX_KEY) break;
    }
    // The next stem to look at is past this name.
    STEM_HIT.lastIndex = keyEnd;
    if (keyEnd - hit.index > MAX_KEY) continue;
    OPERATOR_AHEAD.lastIndex = keyEnd;
    if (!OPERATOR_AHEAD.test(text)) continue;
    let keyStart = hit.index;
    while (keyStart > 0 && isKeyChar(text.charCodeAt(keyStart - 1))) {
      keyStart--;
      if (keyEnd - keyStart > MAX_KEY) break;
    }
    if (keyEnd - keyStart > MAX_KEY) continue;
    ASSIGNMENT.lastIndex = keyStart;
    const m = ASSIGNMENT.exec(text);
    if (m === null || (m[1] ?? '').length !== keyEnd - keyStart) continue;
    const group = VALUE_GROUPS.find((g) => m[g] !== undefined);
    const range = group === undefined ? undefined : m.indices?.[group];
    if (range === undefined || !acceptAssignment(m, text)) continue;
    // Keep truncate()'s ellipsis visible: the text was cut there.
    const end = text[range[1] - 1] === '…' ? range[1] - 1 : range[1];
    findings.push({ rule: 'secret-assignment', start: range[0], end, priority: GENERIC });
    // The value is replaced whole: no name inside it needs reading (a 1 MB value holds hundreds
    // of stems by chance).
    STEM_HIT.lastIndex = Math.max(STEM_HIT.lastIndex, range[1]);
  }
  return findings;
}

/**
 * A value in the middle of a line that is a generated token: one run of token characters
 * (letters, digits, `_+=./-`). `PASS` there is a test runner's status (`--- PASS:
 * TestParseV2Header (0.00s)`), not a password's name.
 */
function generatedInProse(key: string, bare: string): boolean {
  const value = bare.replace(/[.,;:!?)]+$/, '');
  if (key === 'PASS' || !/^[A-Za-z0-9_+=./-]+$/.test(value)) return false;
  return looksKeyLike(value, 16);
}

/**
 * Letters only, yet no name: 20 or more, the case changing as often as in a random run
 * (`weatherToken=QvTnbRkdLpXeWsGu…`), separators aside (`org_ZmPqRtVb…`).
 */
function lettersLookGenerated(bare: string): boolean {
  return looksKeyLike(bare.replace(/[_$]/g, ''), 20);
}

/** Bare values that are code, not data: `token = await fetchToken()`. */
const CODE_WORDS =
  /^(?:await|new|typeof|void|yield|function|async|lambda|require|import|self|this|static|const|let|var|def|return|of|in|if|else|then|and|or|not|is|nil|null|none|true|false)$/i;

/**
 * Whether the assigned value is a secret: not a placeholder, code, an environment lookup or a
 * path; short numbers only as a password or PIN; under a weak name only when generated-looking.
 */
export function acceptAssignedValue(
  key: string,
  value: string,
  quoted: boolean,
  text: string,
  valueEnd: number,
): boolean {
  const strength = keyStrength(key);
  if (strength === null) return false;
  if (isPlaceholder(value)) return false;
  if (!quoted) {
    if (isMemberExpression(value) || isEnvName(value)) return false;
    // A call: password = getPassword()
    if (text[valueEnd] === '(') return false;
  }
  if (isPath(value)) return false;
  // `"jsonwebtoken": "^9.0.2"`: a package's version under a name that ends in a credential word.
  if (isVersionRange(value)) return false;
  // `max_token: 4096`, `token_ttl=3600`: short numbers are settings, except as a password / PIN.
  if (/^\d{1,7}$/.test(value) && !/pass|pw|pin/i.test(key)) return false;
  // Under a weak name, `name=value` is a pair of its own (`Cookie: session=…`), read as such.
  if (strength === 'weak') return !isUuid(value) && !/=[^=]/.test(value) && looksKeyLike(value, 16);
  return value.length >= 4;
}

function acceptAssignment(m: RegExpExecArray, text: string): boolean {
  const key = m[1] ?? '';
  const typed = m[2] !== undefined;
  const separator = m[3] ?? '';
  const bare = m[8];
  const value = m[4] ?? m[5] ?? m[6] ?? m[7] ?? bare ?? '';
  const end = m.index + m[0].length;
  // `name Type = "…"` (Go, a typed const) is a declaration only after a declaring word: in
  // prose, `Pass source="message"` is not one.
  if (typed && !/^[ \t]*:/.test(m[2] ?? '')) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    if (
      !/\b(?:var|const|let|val|static|final|private|public|protected|internal|readonly|export)[ \t]+$/.test(
        before,
      )
    )
      return false;
  }
  if (bare !== undefined) {
    // A declared type takes a literal: `const token string = fetch()` is code.
    if (typed) return false;
    const sepIndex = m.indices?.[3]?.[0] ?? m.index;
    // Shell: `KEY= cmd` sets KEY to the empty string for cmd.
    if (separator === '=' && /[ \t]/.test(text[sepIndex + 1] ?? '')) {
      if (!/[ \t]/.test(text[sepIndex - 1] ?? '')) return false;
    }
    // `key: value` as a YAML / header line: the value runs to the end of the line (or of an
    // enclosing quoted string). Followed by more on the line it may be code (`{ apiKey: apiKey,
    // … }`) or prose (`use api_token: 4f9c… instead`): there only a generated value counts.
    if (separator === ':' || separator === '=>') {
      const rest = /^[ \t]*(?:$|[\r\n\0"'`]|#)/.exec(text.slice(end, end + 64));
      if (rest === null && !generatedInProse(key, bare)) return false;
    }
    // Code: `password = userPassword;`, `token = await getToken()`, `self.token = token`. An
    // .env key is upper case, a variable mostly not; a generated secret has digits.
    if (
      /^[A-Za-z_$][A-Za-z_$]*$/.test(bare) &&
      (text[end] === ';' || /[a-z]/.test(key)) &&
      !lettersLookGenerated(bare)
    ) {
      return false;
    }
    if (CODE_WORDS.test(bare)) return false;
  }
  // `KEY=\`cmd arg\``: a command's output, not a literal.
  if (m[6] !== undefined && /\s/.test(m[6])) return false;
  return acceptAssignedValue(key, value, bare === undefined, text, end);
}
