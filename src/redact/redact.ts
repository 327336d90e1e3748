/**
 * Secret redaction: everything shim stores or prints goes through here first, and every secret
 * in it becomes `[REDACTED:<rule>]`.
 *
 * One scanner, the same on every path (the hooks' cursor cache and the checkpoints alike), made
 * of shim's own layers, whose findings merge as ./findings.ts says:
 * - the table of formats (./secret-formats.ts, ./format-scan.ts): providers' documented shapes;
 * - the rules (./rules.ts): headers, tokens, private keys, and assignments to credential names
 *   in every syntax (./assignment-scan.ts, ./pair-scan.ts), prose (./prose-scan.ts), the
 *   formats of credential files and commands (./credential-shapes.ts), diffs of secret files
 *   (./secret-files.ts);
 * - the session's memory (./secret-memory.ts): a value found once is replaced wherever else it
 *   stands in the text, the value, or (given a memory) the whole session.
 * The plainly made-up findings are spared (./spare.ts).
 *
 * Everything is synchronous; `redactText` and `redactValue` keep their promise-returning form
 * for the callers that await them.
 * @module
 */
import { scanFormats } from './format-scan.ts';
import {
  applyFindings,
  dropRedacted,
  mergeFindings,
  redactionMarker,
  type Finding,
  type RawFinding,
  FORMAT,
} from './findings.ts';
import { scanAssignments } from './assignment-scan.ts';
import { scanCredentialShapes } from './credential-shapes.ts';
import { scanPairs } from './pair-scan.ts';
import { scanPrefixedTokens } from './prefixed-token-scan.ts';
import { scanProse } from './prose-scan.ts';
import { scanOwnRules } from './rules.ts';
import { scanSecretFileDiffs } from './secret-files.ts';
import { SecretMemory } from './secret-memory.ts';
import { spareNotSecrets } from './spare.ts';

export type { Finding } from './findings.ts';
export { SecretMemory } from './secret-memory.ts';

/**
 * Joins the strings of a value for a single scan. No rule matches across `\0` (every pattern
 * that may span lines stops at it, every negated class excludes it), so no finding spans two
 * strings; a remembered value holds no whitespace, so none spans the separator either.
 */
const LEAF_SEPARATOR = '\n\0\n';

/** Shorter strings cannot hold anything a rule matches (`pw=abcd` is the shortest). */
const MIN_SECRET_TEXT = 7;

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

/** Every layer over one part of a text. */
function scanPart(part: string): RawFinding[] {
  const lower = part.toLowerCase();
  return [
    ...scanFormats(part, lower),
    ...scanOwnRules(part, undefined, lower),
    ...scanPairs(part, lower),
    ...scanProse(part),
    ...scanCredentialShapes(part, lower),
    ...scanPrefixedTokens(part),
    ...(lower.includes('---') || lower.includes('diff') ? scanSecretFileDiffs(part) : []),
  ];
}

/** Every layer over `text`, the made-up findings spared, merged. */
function scan(text: string): Finding[] {
  if (text.length < MIN_SECRET_TEXT) return [];
  const { long, parts } = inParts(text, scanPart);
  const found = spareNotSecrets(text, shifted(parts));
  return mergeFindings(dropRedacted(text, [...long, ...found]));
}

/**
 * `text`'s findings and the places where any value found (here or, with `memory`, anywhere
 * earlier in the session) stands again; what is found here is remembered.
 */
function scanWithMemory(text: string, memory: SecretMemory): Finding[] {
  const findings = scan(text);
  memory.learnFindings(text, findings);
  if (memory.size === 0) return findings;
  const again = memory.find(text).map((f) => ({ ...f, priority: FORMAT }));
  if (again.length === 0) return findings;
  return mergeFindings([...findings.map((f) => ({ ...f, priority: FORMAT + 1 })), ...again]);
}

/**
 * Replaces every secret in `text` with `[REDACTED:<rule>]`. Findings are in input offsets, one
 * per replacement (overlapping findings of several rules are merged into one). With `memory`,
 * what was found earlier in the session is replaced too, and what is found here is added to it.
 */
export function redactTextSync(
  text: string,
  memory: SecretMemory = new SecretMemory(),
): { text: string; findings: Finding[] } {
  const findings = scanWithMemory(text, memory);
  return { text: applyFindings(text, findings), findings };
}

/**
 * `text` with only the values `memory` remembers replaced: for text already redacted once,
 * searched again after the session learned a new secret.
 */
export function forgetRemembered(text: string, memory: SecretMemory): string {
  if (memory.size === 0) return text;
  const found = memory.find(text);
  return found.length === 0 ? text : applyFindings(text, found);
}

/** {@link redactTextSync}, for the callers that await it. */
export async function redactText(
  text: string,
  memory?: SecretMemory,
): Promise<{ text: string; findings: Finding[] }> {
  return redactTextSync(text, memory);
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
 * scanned once, and the findings mapped back to each string. A value found in one string is
 * replaced in every other string of the value too (and, with `memory`, so is every value found
 * earlier in the session; what is found here is added to it). The walk is iterative, so depth is
 * bounded only by memory. Arrays and objects are copied (other objects as plain objects of their
 * own enumerable properties, Dates as Dates); shared references and cycles are preserved.
 * `findings` counts the replacements made.
 */
export function redactValueSync<T>(
  value: T,
  memory: SecretMemory = new SecretMemory(),
): { value: T; findings: number } {
  if (typeof value === 'string') {
    const { text, findings } = redactAlone(value, memory);
    return { value: text as T, findings };
  }
  return copyRedacted(value, (leaves) => redactLeaves(leaves, memory));
}

/**
 * {@link forgetRemembered} for a JSON-like value: a copy of `value` (as {@link redactValueSync}
 * copies) with only the values `memory` remembers replaced. For what was redacted whole when it
 * was stored and is gone through again after the session learned a new secret: reading the
 * rules again over every stored row is what made a long session's rewrite slow.
 */
export function forgetRememberedValue<T>(
  value: T,
  memory: SecretMemory,
): { value: T; findings: number } {
  if (typeof value === 'string') {
    const found = memory.find(value);
    return { value: applyFindings(value, found) as T, findings: found.length };
  }
  if (memory.size === 0) return { value, findings: 0 };
  return copyRedacted(value, (leaves) => rememberedInLeaves(leaves, memory));
}

/** A deep copy of `value` with its strings (object keys included) replaced by `redact`'s. */
function copyRedacted<T>(
  value: T,
  redactStrings: (leaves: string[]) => { texts: string[]; findings: number },
): { value: T; findings: number } {
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

  const redacted = redactStrings(leaves);
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

/** {@link redactValueSync}, for the callers that await it. */
export async function redactValue<T>(
  value: T,
  memory?: SecretMemory,
): Promise<{ value: T; findings: number }> {
  return redactValueSync(value, memory);
}

/** Stands for a string the scanners could not process: it is replaced whole. */
export const UNPROCESSABLE = redactionMarker('unprocessable');

/** `text` redacted on its own; replaced whole (and marked) when scanning it fails. */
function redactAlone(text: string, memory: SecretMemory): { text: string; findings: number } {
  try {
    const { text: out, findings } = redactTextSync(text, memory);
    return { text: out, findings: findings.length };
  } catch {
    return { text: UNPROCESSABLE, findings: 1 };
  }
}

/** The index of the last leaf starting at or before `at`. */
function leafAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The offset of each leaf in the leaves joined by {@link LEAF_SEPARATOR}. */
function leafStarts(leaves: readonly string[]): number[] {
  const starts = new Array<number>(leaves.length);
  let at = 0;
  for (let i = 0; i < leaves.length; i++) {
    starts[i] = at;
    at += (leaves[i] as string).length + LEAF_SEPARATOR.length;
  }
  return starts;
}

/** Every remembered value in `leaves`, one pass over them joined. */
function rememberedInLeaves(
  leaves: string[],
  memory: SecretMemory,
): { texts: string[]; findings: number } {
  if (leaves.length === 0) return { texts: leaves, findings: 0 };
  const starts = leafStarts(leaves);
  const perLeaf = new Map<number, Finding[]>();
  let count = 0;
  for (const f of memory.find(leaves.join(LEAF_SEPARATOR))) {
    const i = leafAt(starts, f.start);
    let list = perLeaf.get(i);
    if (list === undefined) perLeaf.set(i, (list = []));
    list.push(f);
    count++;
  }
  const texts = leaves.slice();
  for (const [i, list] of perLeaf)
    texts[i] = applyFindings(leaves[i] as string, list, starts[i] as number);
  return { texts, findings: count };
}

/**
 * One scan over all `leaves`, mapped back to each. A finding that runs from one leaf into the
 * next (a rule reading past the separator) is not applied: the leaves it touches are scanned
 * again each on its own, so nothing found in one string ever replaces text of another (an
 * object's keys, a neighbouring value). Then every value found (and remembered) is looked for
 * in every leaf. If the joined scan fails, every leaf is scanned alone.
 */
function redactLeaves(
  leaves: string[],
  memory: SecretMemory,
): { texts: string[]; findings: number } {
  if (leaves.length === 0) return { texts: leaves, findings: 0 };
  const starts = leafStarts(leaves);
  const joined = leaves.join(LEAF_SEPARATOR);
  let findings: Finding[];
  try {
    findings = scan(joined);
  } catch {
    const alone = leaves.map((leaf) => redactAlone(leaf, memory));
    return {
      texts: alone.map((a) => a.text),
      findings: alone.reduce((n, a) => n + a.findings, 0),
    };
  }

  const perLeaf = new Map<number, RawFinding[]>();
  const rescan = new Set<number>();
  const add = (i: number, f: RawFinding) => {
    let list = perLeaf.get(i);
    if (list === undefined) perLeaf.set(i, (list = []));
    list.push(f);
  };
  for (const f of findings) {
    const i = leafAt(starts, f.start);
    const leafStart = starts[i] as number;
    const leafEnd = leafStart + (leaves[i] as string).length;
    if (f.end > leafEnd || f.start < leafStart) {
      for (let j = i; j < leaves.length && (starts[j] as number) < f.end; j++) rescan.add(j);
      continue;
    }
    add(i, { rule: f.rule, start: f.start, end: f.end, priority: FORMAT + 1 });
  }
  // What the leaves scanned alone find joins what the joined scan found, before the memory runs.
  const alone = new Map<number, Finding[]>();
  for (const i of rescan) {
    const leaf = leaves[i] as string;
    try {
      const own = scan(leaf);
      memory.learnFindings(leaf, own);
      alone.set(i, own);
    } catch {
      alone.set(i, []);
      perLeaf.set(i, [
        {
          rule: 'unprocessable',
          start: starts[i] as number,
          end: (starts[i] as number) + leaf.length,
          priority: FORMAT + 2,
        },
      ]);
    }
  }
  for (const [i, list] of perLeaf) if (!rescan.has(i)) memory.learnFindings(joined, list);
  if (memory.size > 0) {
    for (const f of memory.find(joined)) {
      const i = leafAt(starts, f.start);
      add(i, { ...f, priority: FORMAT });
    }
  }
  const texts = leaves.slice();
  let count = 0;
  for (let i = 0; i < leaves.length; i++) {
    const own = perLeaf.get(i) ?? [];
    const list = rescan.has(i)
      ? [
          ...own.filter((f) => f.priority !== FORMAT + 1),
          ...(alone.get(i) ?? []).map((f) => ({
            ...f,
            start: f.start + (starts[i] as number),
            end: f.end + (starts[i] as number),
            priority: FORMAT + 1,
          })),
        ]
      : own;
    if (list.length === 0) continue;
    const merged = mergeFindings(list);
    texts[i] = applyFindings(leaves[i] as string, merged, starts[i] as number);
    count += merged.length;
  }
  return { texts, findings: count };
}
