/**
 * What another copy's redaction says: two versions of one value (a checkpoint as this machine
 * holds it, and as the team store holds it now, redacted again where its machine learned a
 * secret), walked side by side; where a string of the newer holds `[REDACTED:<rule>]` markers and
 * the older holds text there instead, that text is a secret `<rule>` found. Learned into a memory,
 * it is replaced in every copy here (app/team/refresh-pulled-copies.ts).
 * @module
 */
import type { SecretMemory } from './secret-memory.ts';

const MARKER = /\[REDACTED:([\w-]+)\]/g;

/**
 * The values `before` held where `after` holds markers, with the markers' rules: the text around
 * the markers must stand in `before` in the same order, else nothing is read from the pair.
 */
export function redactedValues(
  before: string,
  after: string,
): Array<{ value: string; rule: string }> {
  if (before === after) return [];
  const rules: string[] = [];
  const literals = after.split(MARKER).filter((part, i) => {
    if (i % 2 === 1) rules.push(part);
    return i % 2 === 0;
  });
  if (rules.length === 0 || !before.startsWith(literals[0]!)) return [];
  const last = literals[literals.length - 1]!;
  if (!before.endsWith(last) || before.length < literals[0]!.length + last.length) return [];
  const found: Array<{ value: string; rule: string }> = [];
  let at = literals[0]!.length;
  const end = before.length - last.length;
  for (let i = 0; i < rules.length; i++) {
    const next = i + 1 < rules.length ? literals[i + 1]! : null;
    // A value is never empty: the next literal is looked for one character on at least.
    const stop = next === null ? end : before.indexOf(next, at + 1);
    if (stop < at + 1 || stop > end) return [];
    found.push({ value: before.slice(at, stop), rule: rules[i]! });
    at = stop + (next?.length ?? 0);
  }
  return found;
}

/** Learns every value `before` held where `after` is redacted; returns how many were new. */
export function learnRedacted(before: unknown, after: unknown, memory: SecretMemory): number {
  if (typeof before === 'string' && typeof after === 'string') {
    let learned = 0;
    for (const { value, rule } of redactedValues(before, after))
      if (memory.learn(value, rule)) learned++;
    return learned;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    let learned = 0;
    for (let i = 0; i < Math.min(before.length, after.length); i++)
      learned += learnRedacted(before[i], after[i], memory);
    return learned;
  }
  if (before && after && typeof before === 'object' && typeof after === 'object') {
    let learned = 0;
    const newer = after as Record<string, unknown>;
    for (const [key, value] of Object.entries(before as Record<string, unknown>))
      if (key in newer) learned += learnRedacted(value, newer[key], memory);
    return learned;
  }
  return 0;
}
