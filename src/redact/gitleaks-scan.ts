/**
 * The gitleaks formats (./gitleaks-rules.ts) as a scanner: a rule is tried only when one of its
 * keywords occurs in the text (one pass over the lower-cased text finds them all), its match is
 * kept when the secret is random enough (Shannon entropy) and no allowlist or stopword excuses
 * it — as gitleaks decides. Pure, synchronous and lazy: patterns compile on first use.
 * @module
 */
import { GENERIC, SPECIFIC, type RawFinding } from './findings.ts';
import { getGitleaksRules, GLOBAL_ALLOW, type GitleaksRule } from './gitleaks-rules.ts';

type Allow = { patterns: RegExp[]; stopwords: string[]; target: string };

/**
 * One rule, its regular expressions built the first time a keyword of it occurs: most rules
 * never run in a given process, and building all of them cost every hook ~5 ms.
 */
type Compiled = {
  rule: GitleaksRule;
  pattern?: RegExp;
  /** A `<identifier> <operator> <value>` rule: it needs an operator shortly after its keyword. */
  assignment?: boolean;
  allow?: Allow[];
};

function patternOf(c: Compiled): RegExp {
  return (c.pattern ??= new RegExp(c.rule.pattern, 'gd'));
}

function isAssignment(c: Compiled): boolean {
  return (c.assignment ??=
    c.rule.pattern.includes(ASSIGNMENT_OPERATOR) && !hasTopLevelAlternation(c.rule.pattern));
}

function allowOf(c: Compiled): Allow[] {
  return (c.allow ??= (c.rule.allow ?? []).map((a) => ({
    patterns: (a.patterns ?? []).map((p) => new RegExp(p)),
    stopwords: a.stopwords ?? [],
    target: a.target ?? 'secret',
  })));
}

export type Scanner = {
  keywords: RegExp;
  /** The keywords by their first character, longest first (the alternation's order). */
  byFirstChar: Map<string, string[]>;
  byKeyword: Map<string, Compiled[]>;
  globalPatterns: RegExp[];
  globalStopwords: string[];
};

let scanner: Scanner | undefined;

/** The operator group of gitleaks' semi-generic patterns (identifier, operator, value). */
const ASSIGNMENT_OPERATOR = '(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)';
/**
 * Such a rule needs an operator shortly after its keyword (`aws_token = …`), or just before it
 * when the keyword is the value's own prefix (`key = "live_…"`).
 */
const OPERATOR_AFTER = /^[\w.\- \t'"\\]{0,40}?[=:>,|?]/;
const OPERATOR_BEFORE = /[=:>,|?][\s'"`=\\]{0,8}$/;

/** True when `source` is several patterns joined by `|` (some alternatives may need no operator). */
function hasTopLevelAlternation(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

function hasOperatorNear(text: string, at: number, keyword: string): boolean {
  const end = at + keyword.length;
  return (
    OPERATOR_AFTER.test(text.slice(end, end + 48)) ||
    OPERATOR_BEFORE.test(text.slice(Math.max(0, at - 12), at))
  );
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function build(): Scanner {
  const byKeyword = new Map<string, Compiled[]>();
  for (const rule of getGitleaksRules()) {
    const compiled: Compiled = { rule };
    for (const keyword of rule.keywords) {
      const list = byKeyword.get(keyword) ?? [];
      list.push(compiled);
      byKeyword.set(keyword, list);
    }
  }
  // Longest first, so a keyword that contains another is found too (both are looked up).
  const keywords = [...byKeyword.keys()].sort((a, b) => b.length - a.length);
  const byFirstChar = new Map<string, string[]>();
  for (const k of keywords) byFirstChar.set(k[0]!, [...(byFirstChar.get(k[0]!) ?? []), k]);
  return {
    keywords: new RegExp(keywords.map(escapeRegExp).join('|'), 'g'),
    byFirstChar,
    byKeyword,
    globalPatterns: GLOBAL_ALLOW.patterns.map((p) => new RegExp(p)),
    globalStopwords: GLOBAL_ALLOW.stopwords,
  };
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let entropy = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? undefined : to);
}

function isAllowed(s: Scanner, c: Compiled, secret: string, match: string, line: string): boolean {
  const lower = secret.toLowerCase();
  if (s.globalPatterns.some((p) => p.test(secret))) return true;
  if (s.globalStopwords.some((w) => lower.includes(w))) return true;
  for (const a of allowOf(c)) {
    const target = a.target === 'match' ? match : a.target === 'line' ? line : secret;
    if (a.patterns.some((p) => p.test(target))) return true;
    if (a.stopwords.some((w) => lower.includes(w))) return true;
  }
  return false;
}

/**
 * Texts up to this long are searched for keywords position by position: compiling the
 * alternation of all keywords costs the first scan in a process ~1.5 ms, and hooks scan short
 * texts in fresh processes.
 */
export const SHORT_TEXT = 4096;

/**
 * The keywords in `lower` as the alternation (longest first) finds them: at each place the
 * longest keyword that starts there, the search going on after it.
 */
export function findKeywords(s: Scanner, lower: string): Array<[keyword: string, at: number]> {
  const found: Array<[string, number]> = [];
  if (lower.length > SHORT_TEXT) {
    for (const m of lower.matchAll(s.keywords)) found.push([m[0], m.index]);
    return found;
  }
  for (let i = 0; i < lower.length;) {
    const keyword = s.byFirstChar.get(lower[i]!)?.find((k) => lower.startsWith(k, i));
    if (keyword === undefined) {
      i++;
    } else {
      found.push([keyword, i]);
      i += keyword.length;
    }
  }
  return found;
}

/** Where each keyword occurs in `lower` (one pass); a keyword inside a longer one found too. */
function keywordHits(s: Scanner, lower: string): Map<string, number[]> {
  const hits = new Map<string, number[]>();
  const add = (k: string, at: number) => {
    const list = hits.get(k);
    if (list) list.push(at);
    else hits.set(k, [at]);
  };
  for (const [keyword, at] of findKeywords(s, lower)) {
    add(keyword, at);
    // The scan reports the longest keyword at a place: `sk_` inside `rk_sk_` is looked up here.
    for (const k of s.byKeyword.keys()) {
      if (k.length < keyword.length && keyword.includes(k)) add(k, at + keyword.indexOf(k));
    }
  }
  return hits;
}

/** The scanner, built on first use. */
export function getScanner(): Scanner {
  return (scanner ??= build());
}

/** How far before and after a keyword a rule's match may reach (identifier, value, long keys). */
const WINDOW_BEFORE = 160;
const WINDOW_AFTER = 8192;
const ASSIGNMENT_WINDOW_AFTER = 1024;

/** Merged [start, end) windows around `positions`. */
function windowsAround(
  positions: number[],
  length: number,
  after: number,
): Array<[number, number]> {
  const sorted = [...positions].sort((a, b) => a - b);
  const windows: Array<[number, number]> = [];
  for (const p of sorted) {
    const start = Math.max(0, p - WINDOW_BEFORE);
    const end = Math.min(length, p + after);
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  return windows;
}

/**
 * Every secret the gitleaks formats find in `text`, as findings (the secret's range). A rule runs
 * only near the places its keywords occur. Matches a rule turns down (too little entropy, an
 * allowlist or stopword: a documented example key, a placeholder) go to `rejected` when given:
 * other scanners use them to stay quiet too.
 */
export function scanGitleaks(text: string, rejected?: RawFinding[]): RawFinding[] {
  const s = getScanner();
  const hits = keywordHits(s, text.toLowerCase());
  if (hits.size === 0) return [];
  const positions = new Map<Compiled, number[]>();
  for (const [keyword, at] of hits) {
    let near: number[] | undefined;
    for (const c of s.byKeyword.get(keyword) ?? []) {
      near ??= at.filter((p) => hasOperatorNear(text, p, keyword));
      const use = isAssignment(c) ? near : at;
      if (use.length === 0) continue;
      const list = positions.get(c);
      if (list) list.push(...use);
      else positions.set(c, [...use]);
    }
  }
  const findings: RawFinding[] = [];
  const seen = new Set<string>();
  for (const [c, at] of positions) {
    const after = isAssignment(c) ? ASSIGNMENT_WINDOW_AFTER : WINDOW_AFTER;
    for (const [from, to] of windowsAround(at, text.length, after)) {
      const window = from === 0 && to === text.length ? text : text.slice(from, to);
      for (const m of window.matchAll(patternOf(c))) {
        // The secret group, else the first group that holds one; a group too short to be the
        // secret (a repeated `([a-z0-9]{4}-)` inside a URL) means the whole match is.
        let group = c.rule.secretGroup ?? m.slice(1).findIndex((g) => g !== undefined) + 1;
        if (c.rule.secretGroup === undefined && group > 0 && (m[group]?.length ?? 0) < 8) group = 0;
        const secret = group > 0 ? m[group] : m[0];
        const range = group > 0 ? m.indices?.[group] : m.indices?.[0];
        if (secret === undefined || range === undefined || secret.length === 0) continue;
        // `user:password`: the user name is not secret, only what follows it.
        const colon = c.rule.id === 'curl-auth-user' ? secret.indexOf(':') + 1 : 0;
        const start = from + range[0] + colon;
        const end = from + range[1];
        const key = `${c.rule.id}:${start}:${end}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const finding: RawFinding = {
          rule: c.rule.id,
          start,
          end,
          // Just below shim's own rules: where both find a secret, the marker keeps shim's name.
          priority: (/^(?:generic|curl)-/.test(c.rule.id) ? GENERIC : SPECIFIC) - 0.5,
        };
        if (
          (c.rule.entropy !== undefined && shannonEntropy(secret) < c.rule.entropy) ||
          isAllowed(s, c, secret, m[0], lineAround(text, start, end))
        ) {
          rejected?.push(finding);
          continue;
        }
        findings.push(finding);
      }
    }
  }
  return findings;
}

let genericAllow: Compiled | undefined;

/**
 * True when a value assigned to a key named like a secret is, by gitleaks' generic rule, not
 * one: a word, an identifier, a version, a known non-secret name (its allowlists and stopwords).
 */
export function isBenignAssignedValue(value: string, line: string): boolean {
  scanner ??= build();
  genericAllow ??= [...scanner.byKeyword.values()]
    .flat()
    .find((c) => c.rule.id === 'generic-api-key');
  if (genericAllow === undefined) return false;
  return isAllowed(scanner, genericAllow, value, line, line);
}
