// Imports gitleaks' secret formats into shim (a developer tool; not run by tests or builds).
//
//   node scripts/import-gitleaks.mjs <path to a gitleaks checkout>
//
// gitleaks (MIT, https://github.com/gitleaks/gitleaks) keeps its rule set in config/gitleaks.toml
// and, per rule, sample secrets it must and must not find in cmd/generate/config/rules/*.go.
// This script writes two files from them:
//   src/redact/gitleaks-rules.ts — each rule's id, keywords, entropy and pattern, the pattern
//     translated from Go's regexp syntax to JavaScript's (inline (?i) / (?i:…) / (?-i:…) / (?s:…)
//     flags expanded in place, POSIX classes, \z), plus the global allowlist and stopwords;
//   test/fixtures/secrets/gitleaks-samples.json — the literal true and false positives of the
//     rule sources, and one secret generated from each rule's pattern, each true positive with
//     the secret the rule finds in it (what must not survive redaction).
// Descriptions are not copied. Re-run it when updating to a newer gitleaks; commit both outputs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import RandExp from 'randexp';
import { parse } from 'smol-toml';

const ROOT = resolve(import.meta.dirname, '..');
const source = process.argv[2];
if (!source) {
  process.stderr.write('usage: node scripts/import-gitleaks.mjs <path to a gitleaks checkout>\n');
  process.exit(2);
}
const git = (...args) =>
  execFileSync('git', ['-C', source, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
const commit = git('rev-parse', 'HEAD').trim();
const read = (path) => git('show', `HEAD:${path}`);

// ---------------------------------------------------------------------------------------------
// Go regexp → JavaScript RegExp source

const POSIX = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\s',
  xdigit: '0-9a-fA-F',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

const isLetter = (c) => /[a-zA-Z]/.test(c);
const both = (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`;

/** A character class body with letters and letter ranges doubled when case-insensitive. */
function convertClass(body, ci) {
  let out = '';
  let extra = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '[' && body[i + 1] === ':') {
      const end = body.indexOf(':]', i + 2);
      const name = body.slice(i + 2, end);
      if (!(name in POSIX)) throw new Error(`unknown POSIX class ${name}`);
      out += POSIX[name];
      i = end + 1;
      continue;
    }
    if (c === '\\') {
      out += body.slice(i, i + 2);
      i++;
      continue;
    }
    if (
      ci &&
      body[i + 1] === '-' &&
      body[i + 2] &&
      body[i + 2] !== ']' &&
      isLetter(c) &&
      isLetter(body[i + 2])
    ) {
      const to = body[i + 2];
      out += `${c}-${to}`;
      const lo = c.toLowerCase() === c ? c.toUpperCase() : c.toLowerCase();
      const hi = to.toLowerCase() === to ? to.toUpperCase() : to.toLowerCase();
      extra += `${lo}-${hi}`;
      i += 2;
      continue;
    }
    out += c;
    if (ci && isLetter(c)) extra += c.toLowerCase() === c ? c.toUpperCase() : c.toLowerCase();
  }
  return extra + out;
}

/** Translates one Go (RE2) pattern; throws on syntax it does not know. */
export function goToJs(pattern) {
  const scopes = [{ ci: false, dotall: false }];
  const top = () => scopes[scopes.length - 1];
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const rest = pattern.slice(i);
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'z') out += '$';
      else if (next === 'A') out += '^';
      else if (next === 'x' && pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i);
        out += `\\x${pattern.slice(i + 3, end).padStart(2, '0')}`;
        i = end;
        continue;
      } else if (top().ci && isLetter(next) && !/[dDwWsSbBnrtfvxupP]/.test(next)) out += both(next);
      else out += `\\${next}`;
      i++;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') {
        if (pattern[j] === '\\') j += 2;
        else if (pattern[j] === '[' && pattern[j + 1] === ':') j = pattern.indexOf(':]', j) + 2;
        else j++;
      }
      const negated = pattern[i + 1] === '^';
      const body = pattern.slice(i + (negated ? 2 : 1), j);
      out += `[${negated ? '^' : ''}${convertClass(body, top().ci)}]`;
      i = j;
      continue;
    }
    const flags = /^\(\?([a-z]*)(?:-([a-z]*))?([:)])/.exec(rest);
    if (flags) {
      const on = flags[1];
      const off = flags[2] ?? '';
      const scope = { ...top() };
      if (on.includes('i')) scope.ci = true;
      if (off.includes('i')) scope.ci = false;
      if (on.includes('s')) scope.dotall = true;
      if (off.includes('s')) scope.dotall = false;
      if (/[^is]/.test(on + off)) throw new Error(`unsupported flags in ${flags[0]}`);
      if (flags[3] === ')') Object.assign(top(), scope);
      else {
        scopes.push(scope);
        out += '(?:';
      }
      i += flags[0].length - 1;
      continue;
    }
    if (rest.startsWith('(?P<')) {
      scopes.push({ ...top() });
      out += '(?<';
      i += 3;
      continue;
    }
    if (c === '(') {
      scopes.push({ ...top() });
      out += '(';
      if (rest.startsWith('(?:')) {
        out += '?:';
        i += 2;
      }
      continue;
    }
    if (c === ')') {
      scopes.pop();
      out += ')';
      continue;
    }
    if (c === '.' && top().dotall) {
      out += '[\\s\\S]';
      continue;
    }
    if (top().ci && isLetter(c)) {
      // A letter inside a quantifier ({2,3}) cannot occur; letters here are literals.
      out += both(c);
      continue;
    }
    out += c;
  }
  new RegExp(out); // throws if the translation is not valid JavaScript
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rules

const config = parse(read('config/gitleaks.toml'));
const rules = [];
const skipped = [];
for (const rule of config.rules) {
  try {
    const entry = {
      id: rule.id,
      pattern: rule.regex ? goToJs(rule.regex) : null,
      keywords: (rule.keywords ?? []).map((k) => k.toLowerCase()),
      ...(rule.entropy ? { entropy: rule.entropy } : {}),
      ...(rule.secretGroup ? { secretGroup: rule.secretGroup } : {}),
      ...(rule.allowlists?.length
        ? {
            allow: rule.allowlists.map((a) => ({
              ...(a.regexes ? { patterns: a.regexes.map(goToJs) } : {}),
              ...(a.stopwords ? { stopwords: a.stopwords.map((s) => s.toLowerCase()) } : {}),
              ...(a.regexTarget ? { target: a.regexTarget } : {}),
            })),
          }
        : {}),
    };
    if (entry.pattern === null) {
      skipped.push(`${rule.id}: path-only rule`);
      continue;
    }
    rules.push(entry);
  } catch (error) {
    skipped.push(`${rule.id}: ${error.message}`);
  }
}
const globalAllow = {
  patterns: (config.allowlist?.regexes ?? []).map(goToJs),
  stopwords: (config.allowlist?.stopwords ?? []).map((s) => s.toLowerCase()),
};

const header = `/**
 * Secret formats from gitleaks (MIT, https://github.com/gitleaks/gitleaks, commit ${commit.slice(0, 12)}),
 * imported by scripts/import-gitleaks.mjs: patterns translated to JavaScript, keywords lower-case.
 * Generated — edit the importer, not this file. Used by ./gitleaks-scan.ts.
 * @module
 */
`;
const rulesFile = `${header}
export type GitleaksRule = {
  id: string;
  /** JavaScript RegExp source (no flags needed). */
  pattern: string;
  /** Lower-case substrings one of which must occur for the rule to be tried. */
  keywords: string[];
  /** Minimum Shannon entropy of the secret. */
  entropy?: number;
  /** The capture group holding the secret (default: the first group, else the match). */
  secretGroup?: number;
  allow?: Array<{ patterns?: string[]; stopwords?: string[]; target?: string }>;
};

export const GITLEAKS_COMMIT = ${JSON.stringify(commit)};

export const GLOBAL_ALLOW: { patterns: string[]; stopwords: string[] } = JSON.parse(
  ${JSON.stringify(JSON.stringify(globalAllow))},
);

// One JSON string, parsed on first use: these modules load on every hook call, and a string is
// far cheaper to load than the same data as object literals.
const RULES_JSON = ${JSON.stringify(JSON.stringify(rules))};

let rules: GitleaksRule[] | undefined;

export function getGitleaksRules(): GitleaksRule[] {
  rules ??= JSON.parse(RULES_JSON) as GitleaksRule[];
  return rules;
}
`;
writeFileSync(join(ROOT, 'src', 'redact', 'gitleaks-rules.ts'), rulesFile);

// ---------------------------------------------------------------------------------------------
// Samples: literal true/false positives of each rule's Go source, and one generated secret each.

/** Go string literals ("…" with escapes, `…` raw) in `text`, skipping // comments and concatenations. */
function goStrings(text) {
  const found = [];
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('//', i)) {
      i = text.indexOf('\n', i);
      if (i < 0) break;
      continue;
    }
    const q = text[i];
    if (q !== '"' && q !== '`') continue;
    let j = i + 1;
    while (j < text.length && text[j] !== q) j += q === '"' && text[j] === '\\' ? 2 : 1;
    const raw = text.slice(i, j + 1);
    const before = text.slice(0, i).trimEnd();
    const after = text.slice(j + 1).trimStart();
    i = j;
    // Part of an expression ("hf_"+secret) or a call argument (NewSecret("…")): not a sample.
    if (after.startsWith('+') || before.endsWith('+') || before.endsWith('(')) continue;
    try {
      found.push(
        q === '`' ? raw.slice(1, -1) : JSON.parse(raw.replace(/\\x([0-9a-f]{2})/gi, '\\u00$1')),
      );
    } catch {
      // an escape JSON does not know: skip the sample
    }
  }
  return found;
}

/** The body of `name := …{ … }` / `name = append(name, … )` blocks in a function. */
function sampleBlocks(body, name) {
  const blocks = [];
  const re = new RegExp(
    `\\b${name}\\s*(?::=|=)\\s*(?:append\\(${name},|\\[\\]string\\{|map\\[string\\]string\\{)`,
    'g',
  );
  let m;
  while ((m = re.exec(body))) {
    let depth = 1;
    let j = m.index + m[0].length;
    let inString = null;
    for (; j < body.length && depth > 0; j++) {
      const c = body[j];
      if (inString) {
        if (c === '\\' && inString === '"') j++;
        else if (c === inString) inString = null;
      } else if (c === '"' || c === '`') inString = c;
      else if (c === '{' || c === '(') depth++;
      else if (c === '}' || c === ')') depth--;
    }
    blocks.push(body.slice(m.index + m[0].length, j - 1));
  }
  return blocks;
}

const entropy = (s) => {
  const counts = new Map();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
};

const byId = new Map(rules.map((r) => [r.id, r]));
/** The secret the rule finds in `text` (its group, else the match), or null. */
function secretIn(rule, text) {
  const re = new RegExp(rule.pattern, 'g');
  for (const m of text.matchAll(re)) {
    const group = m.slice(1).find((g) => g);
    const secret = rule.secretGroup
      ? m[rule.secretGroup]
      : group !== undefined && group.length >= 8
        ? group
        : m[0];
    if (!secret) continue;
    if (rule.entropy && entropy(secret) < rule.entropy) continue;
    return secret;
  }
  return null;
}

const files = git('ls-tree', '--name-only', 'HEAD', 'cmd/generate/config/rules/')
  .split('\n')
  .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
const samples = [];
let literalTps = 0;
let droppedTps = 0;
let generated = 0;
for (const file of files) {
  const go = read(file);
  for (const fn of go.split(/\nfunc /).slice(1)) {
    const id = /RuleID:\s*"([^"]+)"/.exec(fn)?.[1];
    const rule = id ? byId.get(id) : undefined;
    if (!rule) continue;
    for (const block of sampleBlocks(fn, 'tps')) {
      for (const text of goStrings(block)) {
        const secret = secretIn(rule, text);
        if (secret === null) {
          droppedTps++;
          if (process.env.SHOW_DROPPED)
            process.stderr.write(`dropped ${id}: ${JSON.stringify(text).slice(0, 160)}\n`);
          continue;
        }
        literalTps++;
        samples.push({ rule: id, kind: 'tp', text, secret });
      }
    }
    for (const block of sampleBlocks(fn, 'fps')) {
      for (const text of goStrings(block)) samples.push({ rule: id, kind: 'fp', text });
    }
  }
}
// One generated secret per rule, from its own pattern (deterministic).
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
for (const rule of rules) {
  const gen = new RandExp(new RegExp(rule.pattern));
  gen.max = 8;
  gen.randInt = (a, b) => a + Math.floor(random() * (b - a + 1));
  for (let attempt = 0; attempt < 200; attempt++) {
    let text = gen.gen();
    // gitleaks tries a rule only when a keyword occurs; its own samples name the service.
    if (rule.keywords.length > 0 && !rule.keywords.some((k) => text.toLowerCase().includes(k)))
      text = `${rule.keywords[0]} ${text}`;
    const secret = secretIn(rule, text);
    if (secret === null || secret.length < 8) continue;
    samples.push({ rule: rule.id, kind: 'tp', text, secret, generated: true });
    generated++;
    break;
  }
}
const dir = join(ROOT, 'test', 'fixtures', 'secrets');
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, 'gitleaks-samples.json'),
  `${JSON.stringify({ source: `gitleaks ${commit}`, license: 'MIT', samples }, null, 1)}\n`,
);
process.stdout.write(
  `${rules.length} rules (${skipped.length} skipped: ${skipped.join('; ')})\n` +
    `${samples.filter((s) => s.kind === 'tp').length} true positives (${literalTps} literal, ${generated} generated; ${droppedTps} literal ones the rule itself does not find were dropped), ` +
    `${samples.filter((s) => s.kind === 'fp').length} false positives\n`,
);
