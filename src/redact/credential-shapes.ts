/**
 * Credentials recognised by the structure of the file or command they stand in, not by a
 * provider's prefix: each rule here follows a format's documented layout.
 *
 * - URLs with user information (RFC 3986 `scheme://user:password@host`): the password, also
 *   when it holds `@`, `#` or `!` that should have been percent-encoded; a user part alone that
 *   is a generated token (`https://<token>@github.com/…`, a Sentry DSN's key).
 * - `.netrc` (`machine … login … password …`, ftp(1)), `.pgpass` (`host:port:db:user:password`,
 *   libpq's password file).
 * - Password hashes, which crack offline: crypt(3)'s modular format (`$1$`, `$5$`, `$6$`, bcrypt's
 *   `$2a$`/`$2b$`/`$2y$`, Apache's `$apr1$`, yescrypt's `$y$`, `$argon2id$`, …) as in
 *   `/etc/shadow`, `.htpasswd` and SQL dumps; `{SHA}`/`{SSHA}` (LDAP, htpasswd); MySQL's
 *   `*<40 hex>`.
 * - Jenkins' encrypted secrets (`{AQAAABAAAAA…}` in `credentials.xml`), Azure storage account
 *   keys (64 random bytes: 86 base64 characters and `==`).
 * - Passwords given to a command: `mysql -p<pw>`, `sshpass -p <pw>`, `redis-cli -a <pw>`,
 *   `openssl … -passin pass:<pw>`, `keytool -storepass <pw>`.
 * @module
 */
import { GENERIC, SPECIFIC, type RawFinding } from './findings.ts';
import { scanOwnRules, type Rule } from './rules.ts';
import { isPlaceholder, looksKeyLike } from './value-shape.ts';

const WEB_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'ftps', 'sftp']);

/** `scheme://` and what can be the authority after it (up to the path, a space or a quote). */
const AUTHORITY = /(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{1,30}):\/\/([^\s/'"<>`\\\0]{3,512})/dgi;
/**
 * The host after the last `@` of the user information. It may be empty: libpq reads
 * `postgresql://user:pw@/db?host=/run/postgresql` as a socket connection (docs/team.md).
 */
const HOST =
  /^(?:[A-Za-z0-9.[\]_%-]+(?::\d{0,5})?(?:,[A-Za-z0-9.[\]_%-]+(?::\d{0,5})?)*)?(?:[?#].*)?$/;

function scanUrlCredentials(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  AUTHORITY.lastIndex = 0;
  for (let m = AUTHORITY.exec(text); m !== null; m = AUTHORITY.exec(text)) {
    const authority = m[2] ?? '';
    const start = m.indices![2]![0];
    // The last `@` followed by a host: a password's own `@` comes before it.
    let at = authority.lastIndexOf('@');
    while (at > 0 && !HOST.test(authority.slice(at + 1))) at = authority.lastIndexOf('@', at - 1);
    if (at <= 0) continue;
    const userinfo = authority.slice(0, at);
    // `host?q=a@b`: a query, not user information.
    if (/[?#]/.test(userinfo.split(':')[0] ?? '')) continue;
    const scheme = (m[1] ?? '').toLowerCase().replace(/^(?:git|svn)\+/, '');
    const rule = WEB_SCHEMES.has(scheme) ? 'url-credentials' : 'connection-string';
    const colon = userinfo.indexOf(':');
    if (colon === -1) {
      // A token as the user: `https://ghp_…@github.com`, `https://<key>@o1.ingest.sentry.io`.
      if (looksKeyLike(userinfo, 16) && !isPlaceholder(userinfo))
        findings.push({ rule, start, end: start + at, priority: SPECIFIC });
      continue;
    }
    const password = userinfo.slice(colon + 1);
    if (password === '' || isPlaceholder(password) || /^(?:\*+|x+|X+)$/.test(password)) continue;
    findings.push({ rule, start: start + colon + 1, end: start + at, priority: SPECIFIC });
  }
  return findings;
}

/** `.netrc`: `password <pw>` on a line, or the line after, that names a `machine` or `login`. */
const NETRC = /\b(?:password|passwd)[ \t]+("[^"\n\0]+"|[^\s"'\0]+)/dg;

function acceptNetrc(secret: string, m: RegExpExecArray, text: string): boolean {
  if (isPlaceholder(secret.replace(/^"|"$/g, ''))) return false;
  const before = text.slice(Math.max(0, m.index - 240), m.index);
  const lines = before.split('\n').slice(-3).join('\n');
  return /\b(?:machine|login|default)[ \t]+\S/.test(lines) && !/[=:][ \t]*$/.test(before);
}

/** `.pgpass`: `host:port:database:user:password`, port digits or `*`, one entry per line. */
const PGPASS_LINE =
  /(?:^|\n)[ \t]*(?:[A-Za-z0-9.[\]_-]+|\*):(?:\d{1,5}|\*):(?:[^:\s\\]|\\.)+:(?:[^:\s\\]|\\.)+:((?:[^\s\\]|\\.)+)[ \t]*(?=\r?\n|$)/dg;

/** crypt(3)'s modular format and its kin: `$id$[params$]salt$hash`. */
const CRYPT_IDS = [
  '1',
  '2',
  '2a',
  '2b',
  '2x',
  '2y',
  '5',
  '6',
  '7',
  'y',
  'gy',
  'apr1',
  'md5',
  'sha1',
  'argon2id',
  'argon2i',
  'argon2d',
  'scrypt',
  'pbkdf2',
  'pbkdf2-sha1',
  'pbkdf2-sha256',
  'pbkdf2-sha512',
];
const CRYPT_HASH = new RegExp(
  String.raw`\$(?:${CRYPT_IDS.join('|')})\$[A-Za-z0-9./+=,$-]{16,400}`,
  'g',
);
/** `{SHA}`, `{SSHA}`, `{SSHA256}`, `{SSHA512}`, `{PBKDF2…}` then base64. */
const LDAP_IDS = ['sha', 'ssha', 'pbkdf2', 'crypt', 'md5', 'smd5'];
const LDAP_HASH =
  /\{(?:S?SHA(?:256|384|512)?|PBKDF2(?:-SHA\d+)?|CRYPT|MD5|SMD5)\}[A-Za-z0-9+/.$=]{16,}/gi;
/** MySQL's native password hash: `*` and 40 upper-case hex. */
const MYSQL_HASH = /(?<![A-Za-z0-9*])\*[0-9A-F]{40}(?![0-9A-Fa-f])/g;

/** Jenkins' encrypted secret: `{` base64 that starts with the format's version bytes `}`. */
const JENKINS_SECRET = /\{(AQAAAB[A-Za-z0-9+/]{20,}={0,2})\}/dg;

/** The end of 64 random bytes in base64 (an Azure storage account key): `==` after a run. */
const BASE64_PADDING = /[A-Za-z0-9+/]==(?![A-Za-z0-9+/=])/g;
const BASE64_RUN = /^[A-Za-z0-9+/]{86}$/;

/** 86 base64 characters and `==`, alone in their run; not a `sha512-` digest. */
function scanBase64Keys(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  BASE64_PADDING.lastIndex = 0;
  for (let m = BASE64_PADDING.exec(text); m !== null; m = BASE64_PADDING.exec(text)) {
    const end = m.index + 3;
    const start = end - 88;
    if (start < 0 || !BASE64_RUN.test(text.slice(start, end - 2))) continue;
    if (start > 0 && /[A-Za-z0-9+/=_-]/.test(text[start - 1]!)) continue;
    const before = text.slice(Math.max(0, start - 24), start);
    if (/sha(?:384|512)[-:]$|integrity["']?\s*[:=]\s*["']?$/i.test(before)) continue;
    if (looksKeyLike(text.slice(start, end), 16))
      findings.push({ rule: 'base64-key', start, end, priority: GENERIC });
  }
  return findings;
}

/** `.pgpass` lines hold a port (or `*`) between colons: texts without one are not read. */
const PORT_FIELD = /:(?:\d{1,5}|\*):/;

const PGPASS_RULE: Rule = {
  name: 'pgpass-password',
  pattern: PGPASS_LINE,
  group: 1,
  priority: GENERIC,
};

/** Passwords on a command line, by the command's own flag. */
const COMMAND_PASSWORD =
  /\b(?:(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n\0|;&]{0,200}?[ \t]-p([^\s'"-][^\s'"]*|'[^'\n]+'|"[^"\n]+")|(?:sshpass|docker[ \t]+login|podman[ \t]+login|az[ \t]+login)\b[^\n\0|;&]{0,200}?[ \t]-p[ \t]+([^\s'"-][^\s'"]*|'[^'\n]+'|"[^"\n]+")|redis-cli\b[^\n\0|;&]{0,200}?[ \t]-a[ \t]+([^\s'"-][^\s'"]*|'[^'\n]+'|"[^"\n]+")|-pass(?:in|out)?[ \t]+pass:([^\s'"]+)|-(?:store|key|src|dest|srcstore|deststore)pass[ \t]+([^\s'"-][^\s'"]*))/dg;

function acceptCommandPassword(secret: string): boolean {
  const value = secret.replace(/^['"]|['"]$/g, '');
  return value.length >= 3 && !isPlaceholder(value) && !/^\$/.test(value);
}

const SHAPE_RULES: readonly Rule[] = [
  { name: 'url-credentials', anchors: ['://'], scan: scanUrlCredentials },
  {
    name: 'netrc-password',
    anchors: ['password', 'passwd'],
    pattern: NETRC,
    group: 1,
    priority: GENERIC,
    accept: acceptNetrc,
  },
  {
    name: 'pgpass-password',
    anchors: [':'],
    scan: (text) => (PORT_FIELD.test(text) ? scanOwnRules(text, [PGPASS_RULE]) : []),
  },
  {
    name: 'password-hash',
    anchors: CRYPT_IDS.map((id) => `$${id}$`),
    pattern: CRYPT_HASH,
    priority: SPECIFIC,
    // Not inside a longer run (`a$1$…` is a template or a Perl variable).
    accept: (_s, m, text) => m.index === 0 || !/[A-Za-z0-9$]/.test(text[m.index - 1]!),
  },
  {
    name: 'password-hash',
    anchors: LDAP_IDS.map((id) => `{${id}`),
    pattern: LDAP_HASH,
    priority: SPECIFIC,
  },
  { name: 'password-hash', anchors: ['*'], pattern: MYSQL_HASH, priority: SPECIFIC },
  {
    name: 'jenkins-secret',
    anchors: ['{aqaaab'],
    pattern: JENKINS_SECRET,
    group: 1,
    priority: SPECIFIC,
  },
  { name: 'base64-key', anchors: ['=='], scan: scanBase64Keys },
  {
    name: 'secret-assignment',
    anchors: ['-p', '-a ', 'pass'],
    pattern: COMMAND_PASSWORD,
    group: [1, 2, 3, 4, 5],
    priority: GENERIC,
    accept: acceptCommandPassword,
  },
];

/** Every credential these formats hold in `text` (`lower`: its lower case). */
export function scanCredentialShapes(text: string, lower?: string): RawFinding[] {
  return scanOwnRules(text, SHAPE_RULES, lower);
}
