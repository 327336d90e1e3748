/**
 * Secret redaction: everything shim stores or prints goes through here first, and every secret
 * in it becomes `[REDACTED:<rule>]`.
 *
 * Two layers run over the same text and their findings are merged:
 * - secretlint's recommended preset (`@secretlint/core` + `@secretlint/secretlint-rule-preset-
 *   recommend`, 11.x: the last line that runs on Node 20), loaded on first use through dynamic
 *   `import()` so that commands which never redact never pay for it;
 * - our own regular expressions (./rules.ts) for what the preset misses or reports too coarsely;
 *   findings of all layers, the plainly made-up ones spared (./spare.ts), merge as ./findings.ts
 *   says.
 *
 * `redactTextSync` is the lighter fallback for code that cannot await: our rules only.
 * @module
 */
import type * as SecretlintCore from '@secretlint/core';
import { scanFormats } from './format-scan.ts';
import {
  SPECIFIC,
  applyFindings,
  dropRedacted,
  mergeFindings,
  redactionMarker,
  type Finding,
  type RawFinding,
} from './findings.ts';
import { scanAssignments } from './assignment-scan.ts';
import { scanOwnRules } from './rules.ts';
import { spareNotSecrets } from './spare.ts';

export type { Finding } from './findings.ts';

/**
 * Joins the strings of a value for a single scan. Every rule stops at `\n` (secretlint's scan
 * for private keys does not stop at whitespace, but does at NUL), so no finding spans two
 * strings.
 */
const LEAF_SEPARATOR = '\n\0\n';

/** Shorter strings cannot hold anything a rule matches (`pw=abcd` is the shortest). */
const MIN_SECRET_TEXT = 7;

// ---------------------------------------------------------------------------------------------
// secretlint

type SecretlintMessage = Awaited<ReturnType<typeof SecretlintCore.lintSource>>['messages'][number];

type Secretlint = (text: string) => Promise<RawFinding[]>;

const SECRETLINT_PREFIX = '@secretlint/secretlint-rule-';

/**
 * Preset rules left out: `filter-comments` would let a `secretlint-disable` comment in a
 * transcript switch redaction off; `gcp` only looks at `.json` / `.p12` files it reads itself.
 */
const SKIPPED_RULES = new Set([`${SECRETLINT_PREFIX}filter-comments`, `${SECRETLINT_PREFIX}gcp`]);

/** secretlint rule → our name for the same secret, so both layers agree on the marker. */
const SECRETLINT_NAMES: Record<string, string> = {
  aws: 'aws-secret-access-key',
  privatekey: 'private-key',
  'database-connection-string': 'connection-string',
  basicauth: 'url-credentials',
};

/** Rules that report a whole URL where only its password is secret. */
const URL_RULES = new Set(['connection-string', 'url-credentials']);

let secretlint: Promise<Secretlint> | undefined;

function loadSecretlint(): Promise<Secretlint> {
  secretlint ??= (async () => {
    const [core, preset, profiler] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ]);
    // secretlint 11 profiles every lint whether asked or not: ~56 performance marks per call
    // that are never cleared, and an observer whose work grows with all marks so far, so a
    // long-lived process slows down quadratically and leaks memory (secretlint#1633, #1653;
    // fixed by an opt-in switch only in the Node 22 line). Nothing reads the profile here.
    profiler.secretLintProfiler.mark = () => {};
    const config: SecretlintCore.SecretLintSourceOptions['options']['config'] = {
      rules: preset.rules
        .filter((rule) => !SKIPPED_RULES.has(rule.meta.id))
        .map((rule) => ({ id: rule.meta.id, rule, options: {} })),
    };
    return async (text: string) => {
      const result = await core.lintSource({
        source: { content: text, filePath: 'shim-redact.txt', ext: '.txt', contentType: 'text' },
        options: { config, noPhysicFilePath: true, maskSecrets: false },
      });
      // secretlint drops a leading BOM before scanning: its offsets start one later.
      const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
      return result.messages.map((message) => toFinding(text, message, shift));
    };
  })();
  // A failed load is retried by the next call rather than cached.
  secretlint.catch(() => (secretlint = undefined));
  return secretlint;
}

function ruleName(message: SecretlintMessage): string {
  const id = message.ruleId.startsWith(SECRETLINT_PREFIX)
    ? message.ruleId.slice(SECRETLINT_PREFIX.length)
    : message.ruleId;
  return SECRETLINT_NAMES[id] ?? id;
}

/**
 * A secretlint message as a finding, with its range repaired where the rule reports it wrongly:
 * aws's secret-access-key check (like npm's x-oauth-basic one, not reached here) takes the start
 * of the whole match with the length of the secret, which covers the key name and leaves most of
 * the secret, so the range is found again from the secret the message carries. URL rules report
 * the whole URL and are narrowed to its password.
 */
function toFinding(text: string, message: SecretlintMessage, shift: number): RawFinding {
  const rule = ruleName(message);
  let start = message.range[0] + shift;
  let end = message.range[1] + shift;
  const reported = text.slice(start, end);
  const data = Object.values((message.data ?? {}) as Record<string, unknown>).filter(
    (v): v is string => typeof v === 'string' && v.length >= 8,
  );
  if (data.length > 0 && !data.includes(reported)) {
    const secret = data.reduce((a, b) => (b.length > a.length ? b : a));
    const at = text.indexOf(secret, start);
    if (at !== -1 && at - start <= 256) {
      start = at;
      end = at + secret.length;
    }
  }
  if (URL_RULES.has(rule)) {
    const password = /^[a-z][a-z0-9+.:-]*:\/\/[^:/\s@]*:([^@/\s]+)@/i.exec(text.slice(start, end));
    if (password?.[1] !== undefined) {
      end = start + password[0].length - 1;
      start = end - password[1].length;
    }
  }
  return { rule, start, end, priority: SPECIFIC };
}

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * secretlint's preset alone over `text`, as the other layers would see it: the baseline the
 * bench measures shim's own table beside.
 */
export async function redactWithSecretlintOnly(text: string): Promise<string> {
  if (text.length < MIN_SECRET_TEXT) return text;
  const lint = await loadSecretlint();
  return applyFindings(text, mergeFindings(await lint(text)));
}

/** Texts this long are first searched for long assigned values (see {@link inParts}). */
const LONG_TEXT = 64 * 1024;
const LONG_VALUE = 4096;

/**
 * Runs `scanPart` over `text`, or, for a long text, only over what lies between its long
 * assigned values (`API_KEY=<1 MB>`): those are secrets whole, whatever they look like, and the
 * layers need not read them (secretlint alone takes ~350 ms per MB).
 */
function inParts<R extends Finding>(
  text: string,
  scanPart: (part: string) => R[],
): { long: RawFinding[]; parts: Array<{ offset: number; findings: R[] }> } {
  const long =
    text.length < LONG_TEXT
      ? []
      : scanAssignments(text).filter((f) => f.end - f.start >= LONG_VALUE);
  const parts: Array<{ offset: number; findings: R[] }> = [];
  let at = 0;
  for (const f of [...long, { start: text.length, end: text.length }]) {
    if (f.start > at) parts.push({ offset: at, findings: scanPart(text.slice(at, f.start)) });
    at = Math.max(at, f.end);
  }
  return { long, parts };
}

function shifted<R extends Finding>(parts: Array<{ offset: number; findings: R[] }>): R[] {
  return parts.flatMap(({ offset, findings }) =>
    offset === 0
      ? findings
      : findings.map((f) => ({ ...f, start: f.start + offset, end: f.end + offset })),
  );
}

/** Our own layers (the table of formats, then the rules) over one part of a text. */
function scanOwn(part: string): RawFinding[] {
  const lower = part.toLowerCase();
  return [...scanFormats(part, lower), ...scanOwnRules(part)];
}

/** All layers over `text`, merged. */
async function scan(text: string): Promise<Finding[]> {
  if (text.length < MIN_SECRET_TEXT) return [];
  const lint = await loadSecretlint();
  const pending: Array<Promise<RawFinding[]>> = [];
  const { long, parts } = inParts(text, (part) => {
    pending.push(lint(part));
    return scanOwn(part);
  });
  const fromSecretlint = await Promise.all(pending);
  const own = shifted(parts);
  const linted = shifted(parts.map((p, i) => ({ offset: p.offset, findings: fromSecretlint[i]! })));
  return mergeFindings(dropRedacted(text, [...long, ...sortOut(text, own, linted)]));
}

/** Our own layers over `text`, merged (no secretlint). */
function scanSync(text: string): Finding[] {
  if (text.length < MIN_SECRET_TEXT) return [];
  const { long, parts } = inParts(text, scanOwn);
  return mergeFindings(dropRedacted(text, [...long, ...sortOut(text, shifted(parts), [])]));
}

/** All layers' findings, the plainly made-up ones spared (./spare.ts). */
function sortOut(text: string, own: RawFinding[], linted: RawFinding[]): RawFinding[] {
  return spareNotSecrets(text, [...own, ...linted]);
}

/**
 * Replaces every secret in `text` with `[REDACTED:<rule>]`. Findings are in input offsets, one
 * per replacement (overlapping findings of several rules are merged into one).
 */
export async function redactText(text: string): Promise<{ text: string; findings: Finding[] }> {
  const findings = await scan(text);
  return { text: applyFindings(text, findings), findings };
}

/**
 * The synchronous fallback, for code that cannot await: our own rules only, without
 * secretlint's preset. It covers the common providers and assignments but is the lighter net;
 * prefer {@link redactText}.
 */
export function redactTextSync(text: string): { text: string; findings: Finding[] } {
  const findings = scanSync(text);
  return { text: applyFindings(text, findings), findings };
}

type Container = Record<string, unknown> | unknown[];

/** Where one property of a copied container gets its key and value. */
type Slot = {
  target: Container;
  key: string | number;
  /** Index into the scanned strings when the key is one of them, else -1. */
  keyLeaf: number;
  /** Index into the scanned strings when the value is one of them, else -1 (use `value`). */
  valueLeaf: number;
  value: unknown;
};

function setProperty(target: Container, key: string | number, value: unknown): void {
  if (Array.isArray(target)) target[key as number] = value;
  else if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}

/**
 * A deep copy of a JSON-like `value` with every string (object keys included) redacted.
 *
 * All strings are scanned in one pass: they are joined with a separator no rule matches across,
 * scanned once, and the findings mapped back to each string. The walk is iterative, so depth is
 * bounded only by memory. Arrays and objects are copied (other objects as plain objects of their
 * own enumerable properties, Dates as Dates); shared references and cycles are preserved.
 * `findings` counts the replacements made.
 */
export async function redactValue<T>(value: T): Promise<{ value: T; findings: number }> {
  if (typeof value === 'string') {
    const { text, findings } = await redactAlone(value);
    return { value: text as T, findings };
  }
  if (value === null || typeof value !== 'object') return { value, findings: 0 };

  const leaves: string[] = [];
  const slots: Slot[] = [];
  const copies = new Map<object, Container | Date>();
  const pending: Array<[object, Container]> = [];

  const leafOf = (s: string) => (s.length >= MIN_SECRET_TEXT ? leaves.push(s) - 1 : -1);
  const copyOf = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    let copy = copies.get(v);
    if (copy === undefined) {
      if (v instanceof Date) copy = new Date(v.getTime());
      else {
        const container: Container = Array.isArray(v) ? new Array<unknown>(v.length) : {};
        pending.push([v, container]);
        copy = container;
      }
      copies.set(v, copy);
    }
    return copy;
  };
  const addSlot = (target: Container, key: string | number, keyLeaf: number, v: unknown) => {
    if (typeof v === 'string') slots.push({ target, key, keyLeaf, valueLeaf: leafOf(v), value: v });
    else slots.push({ target, key, keyLeaf, valueLeaf: -1, value: copyOf(v) });
  };

  const root = copyOf(value);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [source, target] = next;
    if (Array.isArray(source)) {
      for (let i = 0; i < source.length; i++) addSlot(target, i, -1, source[i] as unknown);
    } else {
      const record = source as Record<string, unknown>;
      for (const key of Object.keys(record)) addSlot(target, key, leafOf(key), record[key]);
    }
  }

  const redacted = await redactLeaves(leaves);
  for (const slot of slots) {
    let key = slot.key;
    if (slot.keyLeaf !== -1) {
      const newKey = redacted.texts[slot.keyLeaf] ?? (key as string);
      // Two secrets as keys of one object must not collapse into one property.
      if (newKey !== key) {
        key = newKey;
        for (let n = 2; Object.hasOwn(slot.target, key); n++) key = `${newKey}#${n}`;
      }
    }
    const v = slot.valueLeaf === -1 ? slot.value : redacted.texts[slot.valueLeaf];
    setProperty(slot.target, key, v);
  }
  return { value: root as T, findings: redacted.findings };
}

/** Stands for a string the scanners could not process: it is replaced whole. */
export const UNPROCESSABLE = redactionMarker('unprocessable');

/** `text` redacted on its own; replaced whole (and marked) when scanning it fails. */
async function redactAlone(text: string): Promise<{ text: string; findings: number }> {
  try {
    const { text: out, findings } = await redactText(text);
    return { text: out, findings: findings.length };
  } catch {
    return { text: UNPROCESSABLE, findings: 1 };
  }
}

/**
 * One scan over all `leaves`, mapped back to each. A finding that runs from one leaf into the
 * next (a rule reading past the separator) is not applied: the leaves it touches are scanned
 * again each on its own, so nothing found in one string ever replaces text of another (an
 * object's keys, a neighbouring value). If the joined scan fails, every leaf is scanned alone.
 */
async function redactLeaves(leaves: string[]): Promise<{ texts: string[]; findings: number }> {
  if (leaves.length === 0) return { texts: leaves, findings: 0 };
  const starts = new Array<number>(leaves.length);
  let at = 0;
  for (let i = 0; i < leaves.length; i++) {
    starts[i] = at;
    at += (leaves[i] as string).length + LEAF_SEPARATOR.length;
  }
  let findings: Finding[];
  try {
    findings = await scan(leaves.join(LEAF_SEPARATOR));
  } catch {
    const alone = await Promise.all(leaves.map(redactAlone));
    return {
      texts: alone.map((a) => a.text),
      findings: alone.reduce((n, a) => n + a.findings, 0),
    };
  }
  if (findings.length === 0) return { texts: leaves, findings: 0 };

  const perLeaf = new Map<number, Finding[]>();
  const rescan = new Set<number>();
  for (const f of findings) {
    // The last leaf starting at or before f.start.
    let lo = 0;
    let hi = leaves.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= f.start) lo = mid;
      else hi = mid - 1;
    }
    const leafStart = starts[lo] as number;
    const leafEnd = leafStart + (leaves[lo] as string).length;
    if (f.end > leafEnd || f.start < leafStart) {
      for (let i = lo; i < leaves.length && (starts[i] as number) < f.end; i++) rescan.add(i);
      continue;
    }
    let list = perLeaf.get(lo);
    if (list === undefined) perLeaf.set(lo, (list = []));
    list.push({ rule: f.rule, start: f.start, end: f.end });
  }
  const texts = leaves.slice();
  let count = 0;
  for (const [i, list] of perLeaf) {
    if (rescan.has(i)) continue;
    texts[i] = applyFindings(leaves[i] as string, list, starts[i] as number);
    count += list.length;
  }
  for (const i of rescan) {
    const alone = await redactAlone(leaves[i] as string);
    texts[i] = alone.text;
    count += alone.findings;
  }
  return { texts, findings: count };
}
