/**
 * Our own secret rules: plain regular expressions for what secretlint's recommended preset
 * misses or reports too coarsely (env-style assignments, bearer headers, Stripe, Google, JWTs,
 * AWS key ids, the password part of connection strings, truncated private keys, …). They also
 * back {@link ../redact.ts}'s synchronous fallback, so they must hold up on their own.
 *
 * No pattern matches across `"\n\0\n"`: whatever may span lines (private keys) stops at NUL,
 * and whatever may hold NUL (a negated class) stops at whitespace. So a scan over strings joined
 * by it never produces a match that spans two of them (see `LEAF_SEPARATOR` in redact.ts).
 *
 * Long because it is a table: one short rule per secret format, each with its own comment; the
 * assignment scanner, the longest, is assignment-scan.ts.
 * @module
 */
import { scanAssignments } from './assignment-scan.ts';
import { scanPrivateKeys } from './private-key-scan.ts';
import { GENERIC, SPECIFIC, type RawFinding } from './findings.ts';
import {
  hasDigit,
  isMemberExpression,
  isPlaceholder,
  looksGenerated,
  looksRandom,
  notMasked,
} from './value-shape.ts';

/**
 * Lower-case strings of which every match holds at least one: a rule runs only on a text that
 * has one. Compiling a rule's expression is most of what the first scan in a process costs
 * (every hook and statusline is a fresh process), and most texts hold none of them.
 */
type Anchors = { anchors?: readonly string[] };

/** A rule with its own scanner. */
export type ScanRule = Anchors & { name: string; scan: (text: string) => RawFinding[] };

export type Rule = RegexRule | ScanRule;

export type RegexRule = Anchors & {
  name: string;
  /** Must have the `g` flag, and the `d` flag when `group` is set. */
  pattern: RegExp;
  /**
   * The capture group holding the secret (the rest of the match stays), or several alternative
   * groups of which the first that took part is used; the whole match if unset.
   */
  group?: number | readonly number[];
  priority: number;
  /** Drops a candidate when it returns false. `secret` is the text that would be replaced. */
  accept?: (secret: string, match: RegExpExecArray, text: string) => boolean;
  /** A different name for this particular match. */
  rename?: (match: RegExpExecArray) => string;
};

/**
 * --password value, --api-key=value (the `=` form is also caught by ASSIGNMENT), and
 * PowerShell's parameters: `-ClientSecret '…'`, `-Password …`, `-ApiKey …`.
 */
const CLI_FLAG =
  /(?<![\w-])--?[a-z0-9-]{0,40}?(?:password|passwd|pass|token|secret|api-key|apikey|access-key|accesskey|secret-key|secretkey|auth-token|client-secret)[ \t]+(?:"([^"\n\0]+)"|'([^'\n\0]+)'|([^\s'"`;&|<>()\0-][^\s'"`;&|<>()\0]*))/dgi;

function acceptCliFlag(secret: string): boolean {
  return !isPlaceholder(secret) && !isMemberExpression(secret) && secret.length >= 4;
}

/**
 * curl / wget `-u user:password`, `--user user:password`: group 1 is both, since the user name of
 * a service account (an API key id) is half of the credential.
 */
const CLI_USER =
  /(?<![\w-])(?:-u|--user|--proxy-user|--http-password)[ \t=]+["']?((?:"[^"\s:]{1,100}"|'[^'\s:]{1,100}'|[^\s:'"]{0,100}):(?:'[^'\s]+'|"[^"\s]+"|[^\s'"]+)?)/dg;

function acceptCliUser(secret: string, m: RegExpExecArray, text: string): boolean {
  const colon = secret.indexOf(':');
  const password = secret.slice(colon + 1);
  // `-u <key>:` with no password: the user is an API key (the way Stripe's and others' APIs
  // take one over basic auth), so it must look generated.
  if (password === '') {
    const user = secret.slice(0, colon);
    if (isPlaceholder(user) || !looksRandom(user, 10)) return false;
  } else if (isPlaceholder(password) || password.length < 4 || /^\$|^\{\{|^\[/.test(password))
    return false;
  // `<user:password>`, `user:pass`: documentation.
  if (/^</.test(secret) || /^(?:pass|pwd|passw(?:or)?d|secret|token)>?$/i.test(password))
    return false;
  // Only for HTTP clients: `docker run -u 1000:1000` is a user and a group. The command may
  // start lines earlier, continued with a backslash at each line's end.
  let lineStart = text.lastIndexOf('\n', m.index) + 1;
  for (
    let i = 0;
    i < 20 && lineStart > 1 && /\\\r?\n$/.test(text.slice(lineStart - 3, lineStart));
    i++
  )
    lineStart = text.lastIndexOf('\n', lineStart - 2) + 1;
  return /\b(?:curl|wget|http|https|xh)\b/.test(text.slice(lineStart, m.index));
}

// Connection strings and URLs with a password: ./credential-shapes.ts

// ---------------------------------------------------------------------------------------------
// Authorization headers

/** Authorization: Bearer <token>, or a bare `Bearer <long token>` (group 1). */
const BEARER = /(?<![A-Za-z])[Bb]earer[ \t]+([A-Za-z0-9\-._~+/]{8,}=*)(?![A-Za-z0-9\-._~+/=])/dg;

function acceptBearer(secret: string, m: RegExpExecArray, text: string): boolean {
  if (isPlaceholder(secret) || /^[A-Z_]+$/.test(secret)) return false;
  // `Bearer dev-token`, `Bearer test_token`: words, not a token.
  if (/^[a-z]+(?:[-_][a-z]+){0,3}$/.test(secret)) return false;
  const before = text.slice(Math.max(0, m.index - 48), m.index);
  if (/authorization["'\\]*[ \t]*[:=][ \t]*["'\\]*$/i.test(before)) return true;
  return secret.length >= 20 && hasDigit(secret) && /[A-Za-z]/.test(secret);
}

/** Authorization: Basic|Token|Bot|ApiKey <credential> (group 1). */
const AUTHORIZATION =
  /(?<![A-Za-z])authorization["'\\]*[ \t]*[:=][ \t]*["'\\]*(?:(?:Basic|Token|Bot|ApiKey|Api-Key|Api-Token|SSWS|Key)[ \t]+)?([A-Za-z0-9\-._~+/]{8,}=*)/dgi;

// ---------------------------------------------------------------------------------------------
// Private keys: ./private-key-scan.ts

// ---------------------------------------------------------------------------------------------
// The rule list

export const OWN_RULES: readonly Rule[] = [
  {
    name: 'private-key',
    anchors: ['-----begin', '-----end', 'ls0tls1crudjti'],
    scan: scanPrivateKeys,
  },
  {
    name: 'anthropic',
    anchors: ['sk-ant-'],
    pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{24,}/g,
    priority: SPECIFIC,
    accept: notMasked,
  },
  {
    name: 'openai',
    anchors: ['sk-'],
    pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:(?:proj|svcacct|admin|None)-)?([A-Za-z0-9_-]{20,})/dg,
    priority: SPECIFIC,
    accept: (s, m) => notMasked(s) && looksGenerated(m[1] ?? ''),
  },
  {
    name: 'github',
    anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern:
      /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{30,255})(?![A-Za-z0-9_])/g,
    priority: SPECIFIC,
    accept: notMasked,
  },
  {
    // Shopify access tokens and shared secrets: documented as hex, taken as any letters and
    // digits; the cursor cache is scrubbed with these rules alone (no secretlint).
    name: 'shopify',
    anchors: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: /(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,64}(?![A-Za-z0-9_])/g,
    priority: SPECIFIC,
    accept: notMasked,
  },
  {
    name: 'stripe',
    anchors: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'],
    pattern:
      /(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})(?![A-Za-z0-9_])/g,
    priority: SPECIFIC,
    accept: notMasked,
  },
  {
    name: 'slack',
    anchors: ['xox', 'xapp-', 'hooks.slack.com'],
    pattern:
      /(?<![A-Za-z0-9-])(?:xox[abeoprs]-(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})|https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{16,}/g,
    priority: SPECIFIC,
    accept: (s) => notMasked(s) && hasDigit(s),
  },
  {
    name: 'google-api-key',
    anchors: ['aiza'],
    pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
    priority: SPECIFIC,
    accept: notMasked,
  },
  {
    name: 'google-oauth',
    anchors: ['ya29.', 'gocspx-'],
    pattern: /(?<![A-Za-z0-9_-])(?:ya29\.[A-Za-z0-9_-]{20,}|GOCSPX-[A-Za-z0-9_-]{20,})/g,
    priority: SPECIFIC,
    accept: notMasked,
  },
  {
    name: 'aws-access-key-id',
    anchors: ['akia', 'asia', 'abia', 'acca'],
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    priority: SPECIFIC,
    accept: notMasked,
  },
  {
    name: 'aws-secret-access-key',
    anchors: ['secret'],
    pattern:
      /(?<![A-Za-z0-9_])(?:\\?["'])?(?:aws_?)?secret_?access_?key(?:\\?["'])?[ \t]*(?::|=>|=)[ \t]*(?:\\?["'])?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 1,
    priority: SPECIFIC,
  },
  {
    name: 'npm',
    anchors: ['npm_'],
    pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
    priority: SPECIFIC,
    accept: notMasked,
  },
  {
    name: 'jwt',
    anchors: ['eyj'],
    pattern:
      /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*(?![A-Za-z0-9_-])/g,
    priority: SPECIFIC,
  },
  {
    name: 'bearer-token',
    anchors: ['bearer'],
    pattern: BEARER,
    group: 1,
    priority: GENERIC,
    accept: acceptBearer,
  },
  {
    name: 'authorization',
    anchors: ['authorization'],
    pattern: AUTHORIZATION,
    group: 1,
    priority: GENERIC,
    // Without a scheme word the header's value must look generated, not be a word.
    accept: (s, m) =>
      !isPlaceholder(s) &&
      (/(?:Basic|Token|Bot|Key|SSWS)[ \t]+$/i.test(m[0].slice(0, -s.length)) ||
        (hasDigit(s) && s.length >= 10)),
  },
  {
    name: 'secret-assignment',
    scan: scanAssignments,
    // No anchors: some stem (`key`, `api`, `pass`) is in nearly every text, and checking for
    // each would cost more passes over it than the scan's one.
  },
  {
    name: 'secret-assignment',
    // `--user` and `--proxy-user` hold `-u`.
    anchors: ['-u', '--http-password'],
    pattern: CLI_USER,
    group: 1,
    priority: GENERIC,
    accept: acceptCliUser,
  },
  {
    name: 'secret-assignment',
    anchors: ['pass', 'token', 'secret', 'api-key', 'apikey', 'access-key'],
    pattern: CLI_FLAG,
    group: [1, 2, 3],
    priority: GENERIC,
    accept: acceptCliFlag,
  },
];

/** The group holding the secret: `group`, or the first of several that took part. */
function secretGroup(m: RegExpExecArray, group: RegexRule['group']): number | undefined {
  if (group === undefined) return 0;
  if (typeof group === 'number') return group;
  return group.find((g) => m[g] !== undefined);
}

/** Runs every rule of `rules` over `text` (those whose anchors it holds; `lower` is its lower case). */
export function scanOwnRules(
  text: string,
  rules: readonly Rule[] = OWN_RULES,
  lower?: string,
): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const rule of rules) {
    if (rule.anchors) {
      lower ??= text.toLowerCase();
      const has = lower;
      if (!rule.anchors.some((anchor) => has.includes(anchor))) continue;
    }
    if ('scan' in rule) {
      findings.push(...rule.scan(text));
      continue;
    }
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      const group = secretGroup(m, rule.group);
      if (group === undefined) continue;
      const range = group === 0 ? ([m.index, m.index + m[0].length] as const) : m.indices?.[group];
      if (range === undefined) continue;
      const [start, end] = range;
      const secret = text.slice(start, end);
      if (rule.accept && !rule.accept(secret, m, text)) continue;
      findings.push({
        rule: rule.rename ? rule.rename(m) : rule.name,
        start,
        end,
        priority: rule.priority,
      });
    }
  }
  return findings;
}
