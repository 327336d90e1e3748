/**
 * Secrets assigned to a key that names one: `PASSWORD=…`, `"apiKey": "…"`, `token: …` — found where
 * a secret keyword ends a key right before a separator, then read as a whole assignment and kept
 * unless the value is code, a path, a placeholder or (for weak keys) not random. One of the own
 * rules (rules.ts), in a file of its own for its size.
 * @module
 */
import { GENERIC, type RawFinding } from './findings.ts';
import {
  isEnvName,
  isMemberExpression,
  isPath,
  isPlaceholder,
  looksRandom,
} from './value-shape.ts';

// ---------------------------------------------------------------------------------------------
// Secret assignments: KEY=value, "key": "value", key: value, --password value

/** camelCase / kebab / dotted key → snake_case, lower case. */
export function normalizeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Keys whose value is a secret whatever it looks like (only placeholders are spared). */
const STRONG_KEY =
  /(?:api_?key|access_?key|private_?key_?id|key_?data|secret_?key|private_?key|signing_?key|encryption_?key|master_?key|client_?secret|secret|token|password|passwd|passphrase|(?:^|_)pass|(?:^|_)pwd|(?:^|_)pw)$/;
/** Keys that only sometimes hold a secret (`SORT_KEY=name`): the value must look random. */
const WEAK_KEY = /(?:^|_)(?:key|credentials?|auth)$/;

/** Which kind of secret a key names, if any. */
export function keyStrength(key: string): 'strong' | 'weak' | null {
  const k = normalizeKey(key);
  if (STRONG_KEY.test(k)) return 'strong';
  if (WEAK_KEY.test(k)) return 'weak';
  return null;
}

/**
 * A name that says its value is not a real one: `nonMatchingToken`, `FAKE_API_KEY`,
 * `invalid_password`, `example_secret` — test and documentation fixtures. Not among them: `test`
 * (`TEST_API_KEY` names a real key of a test environment), `sample` (a sample app's real key).
 */
const SAYS_NOT_REAL =
  /(?:^|_)(?:fake|dummy|mock|mocked|example|invalid|wrong|incorrect|bogus|non_?matching|not_?matching|nonexistent|placeholder)(?:_|$)/;

function acceptAssignedValue(
  key: string,
  value: string,
  quoted: boolean,
  text: string,
  valueEnd: number,
): boolean {
  const strength = keyStrength(key);
  // The shell's working directory, not a password.
  if (strength === null || key === 'PWD') return false;
  if (SAYS_NOT_REAL.test(normalizeKey(key))) return false;
  if (isPlaceholder(value)) return false;
  if (!quoted) {
    if (isMemberExpression(value) || isEnvName(value)) return false;
    // A call: password = getPassword()
    if (text[valueEnd] === '(') return false;
  }
  if (isPath(value)) return false;
  // `max_token: 4096`, `token_ttl=3600`: short numbers are settings, except as a password / PIN.
  if (/^\d{1,7}$/.test(value) && !/pass|pw|pin/i.test(key)) return false;
  if (strength === 'weak') return looksRandom(value, 16);
  return value.length >= 4;
}

const KEYWORDS =
  'key[_-]?id|key[_-]?data|key|token|secret|password|passwd|passphrase|pass|pwd|pw|credentials?|auth|apikey|accesskey';

/**
 * Where to look: a keyword ending a key, right before a separator. Scanning for these first and
 * matching ASSIGNMENT only there is several times faster than one pattern over all the text
 * (a transcript holds hundreds of thousands of identifiers and a few hundred such keys).
 */
const KEY_END = new RegExp(String.raw`(?:${KEYWORDS})(?=(?:\\?["'])?[ \t]*(?::|=(?![=~])))`, 'gi');

/**
 * Sticky at the start of a key: key [=:] value, the key optionally quoted (also JSON-escaped
 * `\"key\"`) and the value double-, single- or backtick-quoted, escaped-quoted, or bare.
 * Groups: 1 key, 2 separator, 3 "…", 4 '…', 5 `…`, 6 \"…\", 7 bare.
 */
const ASSIGNMENT = new RegExp(
  String.raw`([A-Za-z0-9_.\-]{1,80})(?:\\?["'])?[ \t]*(:=|=(?![=>~])|:(?!:)|=>)[ \t]*` +
    String.raw`(?:"((?:[^"\\\n\0]|\\[^\n\0])+)"|'([^'\n\0]+)'|` +
    '`([^`\\n\\0]+)`' +
    String.raw`|\\"([^"\\\n\0]+)\\"|([^\s'"` +
    '`' +
    String.raw`;,&|<>(){}\[\]\0]+))`,
  'dy',
);
const VALUE_GROUPS = [3, 4, 5, 6, 7] as const;
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
  KEY_END.lastIndex = 0;
  for (let hit = KEY_END.exec(text); hit !== null; hit = KEY_END.exec(text)) {
    const keyEnd = hit.index + hit[0].length;
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
  }
  return findings;
}

/**
 * A value in the middle of a line that is a generated token: one run of token characters
 * (letters, digits, `_+=./-`) with letters and digits, 16 or more. `PASS` there is a test
 * runner's status (`--- PASS: TestParseV2Header (0.00s)`), not a password's name.
 */
function generatedInProse(key: string, bare: string): boolean {
  const value = bare.replace(/[.,;:!?)]+$/, '');
  if (key === 'PASS' || !/^[A-Za-z0-9_+=./-]+$/.test(value)) return false;
  return looksRandom(value, 16);
}

/** Bare values that are code, not data: `token = await fetchToken()`. */
const CODE_WORDS =
  /^(?:await|new|typeof|void|yield|function|async|lambda|require|import|self|this|static|const|let|var|def|return|of|in)$/;

function acceptAssignment(m: RegExpExecArray, text: string): boolean {
  const key = m[1] ?? '';
  const separator = m[2] ?? '';
  const bare = m[7];
  const value = m[3] ?? m[4] ?? m[5] ?? m[6] ?? bare ?? '';
  const end = m.index + m[0].length;
  if (bare !== undefined) {
    const sepIndex = m.indices?.[2]?.[0] ?? m.index;
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
    if (/^[A-Za-z_$][A-Za-z_$]*$/.test(bare) && (text[end] === ';' || /[a-z]/.test(key))) {
      return false;
    }
    if (CODE_WORDS.test(bare)) return false;
  }
  // `KEY=\`cmd arg\``: a command's output, not a literal.
  if (m[5] !== undefined && /\s/.test(m[5])) return false;
  return acceptAssignedValue(key, value, bare === undefined, text, end);
}
