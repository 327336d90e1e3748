/**
 * The table of secret formats (./secret-formats.ts) as a scanner. Each format becomes one
 * regular expression, built the first time a text holds its prefix, keyword or anchor (most
 * formats never run in a given process: every hook is a fresh one). Patterns are bounded runs
 * with boundaries on both sides, so a scan is linear in the text.
 * @module
 */
import { FORMAT, type RawFinding } from './findings.ts';
import type { Alphabet, Length, SecretFormat } from './secret-format.ts';
import { SECRET_FORMATS } from './secret-formats.ts';

const CLASSES: Record<Alphabet, string> = {
  digits: '0-9',
  hex: '0-9A-Fa-f',
  lowerHex: '0-9a-f',
  alnum: 'A-Za-z0-9',
  lowerAlnum: 'a-z0-9',
  upperAlnum: 'A-Z0-9',
  urlSafe: 'A-Za-z0-9_-',
  base64: 'A-Za-z0-9+/',
  letters: 'A-Za-z',
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const quantifier = (l: Length) => (typeof l === 'number' ? `{${l}}` : `{${l[0]},${l[1]}}`);
/** `asana` → `[aA][sS][aA][nN][aA]`: the keyword in any case, the value's case kept. */
const anyCase = (word: string) =>
  [...word].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : escape(c))).join('');

/** Where a token ends: not inside a longer run of token characters. */
const AFTER = '(?![A-Za-z0-9_+/=~-])';
const BEFORE = '(?<![A-Za-z0-9_+~.-])';

/**
 * A keyword in the name a value is assigned to: the keyword, more of the name, an optional
 * closing quote, an assignment operator, an optional opening quote, the value.
 */
const ASSIGNED = String.raw`[\w.\- ]{0,40}?(?:\\?["'])?[ \t]*(?::{0,3}=|::?|=>|\?=|,)[ \t]*(?:\\?["'\x60])?[ \t]*`;

type Compiled = { format: SecretFormat; anchors: readonly string[]; pattern?: RegExp };

function valueSource(f: SecretFormat): string {
  if (f.shape !== undefined) return f.shape;
  const body = `[${CLASSES[f.body.alphabet]}]${quantifier(f.body.length)}${f.body.alphabet === 'base64' ? '={0,2}' : ''}`;
  const prefix = f.prefix ? `(?:${f.prefix.map(escape).join('|')})` : '';
  return prefix + body;
}

function patternOf(c: Compiled): RegExp {
  if (c.pattern) return c.pattern;
  const f = c.format;
  const value = `(${valueSource(f)})${AFTER}`;
  const source = f.keyword
    ? // A keyword ends where a lower-case letter does not follow (`sumo` is not `sumOf…`).
      `(?:${f.keyword.map(anyCase).join('|')})(?![a-z])${ASSIGNED}${value}`
    : `${BEFORE}${value}`;
  return (c.pattern = new RegExp(source, 'gd'));
}

let compiled: Compiled[] | undefined;

function formats(): Compiled[] {
  return (compiled ??= SECRET_FORMATS.map((format) => ({
    format,
    // A keyword format runs where its keyword is; the others where their prefix or anchor is.
    anchors: (format.keyword ?? format.anchor ?? format.prefix ?? []).map((a) => a.toLowerCase()),
  })));
}

/**
 * Every anchor of every format in one expression, and for each the anchors it holds (`sk-` in
 * `sk-ant-`, `key` in `apikey`): one pass over a text tells which formats can match in it, where
 * asking each format's anchors in turn took a pass per anchor (most of a scan's time).
 */
let anchorScan: { pattern: RegExp; within: Map<string, string[]> } | undefined;

function presentAnchors(lower: string): Set<string> {
  if (anchorScan === undefined) {
    const all = [...new Set(formats().flatMap((c) => c.anchors))].sort(
      (a, b) => b.length - a.length,
    );
    anchorScan = {
      pattern: new RegExp(all.map(escape).join('|'), 'g'),
      within: new Map(all.map((a) => [a, all.filter((b) => a.includes(b))])),
    };
  }
  const present = new Set<string>();
  const { pattern, within } = anchorScan;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(lower); m !== null; m = pattern.exec(lower)) {
    if (present.has(m[0])) continue;
    for (const a of within.get(m[0]) ?? [m[0]]) present.add(a);
    // An anchor may also start inside the one found (`sk-` in `ask-sk-…`): look again one on.
    pattern.lastIndex = m.index + 1;
  }
  return present;
}

/** Every secret of a known format in `text` (the secret's range, named after its format). */
export function scanFormats(text: string, lower = text.toLowerCase()): RawFinding[] {
  const findings: RawFinding[] = [];
  const present = presentAnchors(lower);
  for (const c of formats()) {
    if (c.anchors.length > 0 && !c.anchors.some((a) => present.has(a))) continue;
    const pattern = patternOf(c);
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const range = m.indices?.[1];
      if (range === undefined || range[1] <= range[0]) continue;
      findings.push({ rule: c.format.id, start: range[0], end: range[1], priority: FORMAT });
    }
  }
  return findings;
}
