/**
 * Once found, gone everywhere: the secrets found anywhere in a session, remembered so that the
 * same value is replaced wherever else it stands in that session — in a later prompt with no
 * credential word beside it, a curl header, the summary, an earlier checkpoint.
 *
 * Nothing raw is kept: a remembered value is its length, a 20-bit hash of its first characters
 * and a 53-bit hash of the whole (plus the rule that named it), so a session's memory can be
 * saved beside its cached state. Finding the values again is one pass over the text: at each
 * place a value can start (a change between letters-or-digits and anything else), the hash of
 * the next few characters is looked up, and only a hit hashes the whole candidate — linear in the
 * text, whatever the number of values.
 *
 * Only values that cannot be ordinary text are remembered (./value-shape.ts `isDistinctive`): a
 * password `postgres` under `PASSWORD=` is redacted there, but is not hunted for in every other
 * sentence of the session.
 * @module
 */
import type { Finding } from './findings.ts';
import { isDistinctive } from './value-shape.ts';

/** Characters hashed to find where a remembered value may start. */
const HEAD = 6;
const HEAD_BITS = 20;

/** One remembered value, as saved: `rule:length:head:whole` (hashes in base 36). */
type Entry = { rule: string; length: number; head: number; whole: number };

/**
 * The values of one head hash and one length, by the hash of the whole, each with its place in
 * the order remembered: at a place, one hash per length decides, however many values share
 * their first characters.
 */
type SameLength = { length: number; byWhole: Map<number, Entry & { order: number }> };

/** A letter or digit (the runs tokens are made of; a value starts and ends at a change). */
function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Two 32-bit multiply–xor lanes over the UTF-16 code units of `text[from, to)`, mixed at the
 * end; 53 bits (a safe integer) of the result. Not a cryptographic hash: what it guards is a
 * generated value of 10 or more characters, which no search over its hash can recover.
 */
function hashRange(text: string, from: number, to: number): number {
  let a = 0x9e3779b1;
  let b = 0x85ebca77;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x7feb352d) ^ Math.imul(b ^ (b >>> 13), 0x846ca68b);
  b ^= b >>> 16;
  b = Math.imul(b, 0x7feb352d) ^ Math.imul(a ^ (a >>> 15), 0x846ca68b);
  return (b >>> 11) * 0x100000000 + (a >>> 0);
}

const headOf = (text: string, at: number) =>
  hashRange(text, at, at + HEAD) & ((1 << HEAD_BITS) - 1);

/** Where a remembered value may start or end: a change of kind between two characters. */
function isEdge(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  return !isWordCode(text.charCodeAt(at - 1)) || !isWordCode(text.charCodeAt(at));
}

/** `user:password` when `[start, end)` is the password of a URL's user information, else null. */
function userAndPassword(text: string, start: number, end: number): string | null {
  if (text[start - 1] !== ':' || text[end] !== '@') return null;
  let from = start - 1;
  while (from > 0 && !/[\s/@:]/.test(text[from - 1]!)) from--;
  if (from === start - 1 || text.slice(from - 2, from) !== '//') return null;
  return text.slice(from, end);
}

/** `user:password` when a value found at `start`, right after `//`, opens with `user:password@`. */
function pairOpening(text: string, start: number, value: string): string | null {
  if (text.slice(start - 2, start) !== '//') return null;
  return /^[^\s/@:]+:[^\s/@]+(?=@)/.exec(value)?.[0] ?? null;
}

/** Where the password starts when `[start, end)` is a URL's whole `user:password`, else `start`. */
function passwordOfUrlPair(text: string, start: number, end: number): number {
  if (text[end] !== '@' || text.slice(start - 2, start) !== '//') return start;
  const colon = text.indexOf(':', start);
  return colon > start && colon < end - 1 ? colon + 1 : start;
}

/** The secrets of one session, by hash. Plain data in and out (`saved()`), for the cursor cache. */
export class SecretMemory {
  private readonly byHead = new Map<number, SameLength[]>();
  private readonly values = new Set<string>();
  private readonly lines: string[] = [];
  private shortest = Infinity;

  /** A memory holding what `saved` (from {@link saved}) held; malformed entries are skipped. */
  static from(saved: readonly string[] | null | undefined): SecretMemory {
    const memory = new SecretMemory();
    memory.absorb(saved ?? []);
    return memory;
  }

  /** Adds what another memory saved (merging two processes' memories of one session). */
  absorb(saved: readonly string[]): void {
    for (const line of saved) {
      const m = /^([A-Za-z0-9_-]{1,64}):(\d{1,7}):([0-9a-z]{1,8}):([0-9a-z]{1,12})$/.exec(line);
      if (m) {
        this.insert({
          rule: m[1]!,
          length: Number(m[2]),
          head: parseInt(m[3]!, 36),
          whole: parseInt(m[4]!, 36),
        });
      }
    }
  }

  get size(): number {
    return this.lines.length;
  }

  /** What to save: one line per value, no value in it. */
  saved(): string[] {
    return [...this.lines];
  }

  private insert(entry: Entry): boolean {
    // One value found by two rules is one value: the first name stays.
    const value = `${entry.length}:${entry.whole}`;
    if (this.values.has(value)) return false;
    this.values.add(value);
    this.lines.push(
      `${entry.rule}:${entry.length}:${entry.head.toString(36)}:${entry.whole.toString(36)}`,
    );
    let bucket = this.byHead.get(entry.head);
    if (bucket === undefined) this.byHead.set(entry.head, (bucket = []));
    let same = bucket.find((b) => b.length === entry.length);
    if (same === undefined) bucket.push((same = { length: entry.length, byWhole: new Map() }));
    same.byWhole.set(entry.whole, { ...entry, order: this.lines.length });
    this.shortest = Math.min(this.shortest, entry.length);
    return true;
  }

  /**
   * Remembers `value` (what `rule` found) when it is distinctive enough to be looked for
   * elsewhere; true when it is new.
   */
  learn(value: string, rule: string): boolean {
    if (!isDistinctive(value)) return false;
    return this.insert({
      rule,
      length: value.length,
      head: headOf(value, 0),
      whole: hashRange(value, 0, value.length),
    });
  }

  /** Learns every finding's value in `text`; true when any was new. */
  learnFindings(text: string, findings: readonly Finding[], offset = 0): boolean {
    let grew = false;
    for (const f of findings) {
      const start = f.start - offset;
      const end = f.end - offset;
      const value = text.slice(start, end);
      if (this.learn(value, f.rule)) grew = true;
      // A URL's password is often too short to hunt alone (`deadbeef`); written again it
      // stands with its user (`cafebabe:deadbeef`), which is distinctive as a pair — also
      // when what was found runs on into the host (`user:password@host`).
      const pair = userAndPassword(text, start, end) ?? pairOpening(text, start, value);
      if (pair !== null && this.learn(pair, f.rule)) grew = true;
      // A value of several tokens (`<scheme> <token>`, `<token>,<token>`): each is hunted alone.
      if (/[\s,;]/.test(value))
        for (const part of value.split(/[\s,;]+/)) if (this.learn(part, f.rule)) grew = true;
    }
    return grew;
  }

  /** Every place a remembered value stands in `text`, whole (at edges on both sides). */
  find(text: string): Finding[] {
    const found: Finding[] = [];
    if (this.lines.length === 0 || text.length < this.shortest) return found;
    const last = text.length - this.shortest;
    for (let at = 0; at <= last; at++) {
      if (!isEdge(text, at)) continue;
      const bucket = this.byHead.get(headOf(text, at));
      if (bucket === undefined) continue;
      // Of the values standing here, the one remembered first.
      let e: (Entry & { order: number }) | undefined;
      for (const same of bucket) {
        const end = at + same.length;
        if (end > text.length || !isEdge(text, end)) continue;
        const hit = same.byWhole.get(hashRange(text, at, end));
        if (hit !== undefined && (e === undefined || hit.order < e.order)) e = hit;
      }
      if (e === undefined) continue;
      const end = at + e.length;
      // In a URL's user information, the pair's user stays, as where it was found.
      found.push({ rule: e.rule, start: passwordOfUrlPair(text, at, end), end });
      // Whatever started inside this value is part of it.
      at = end - 1;
    }
    return found;
  }
}
