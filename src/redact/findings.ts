/**
 * Findings: where a rule found a secret in a text, how overlapping findings of several rules
 * (the table of formats, the rules, secretlint's) merge into one replacement, and how they are applied.
 * @module
 */
import { ALREADY_REDACTED } from './value-shape.ts';

/** A secret found in a text: `[start, end)` are UTF-16 offsets into that text. */
export type Finding = { rule: string; start: number; end: number };

/** A finding before merging; `priority` decides which rule names a merged replacement. */
export type RawFinding = Finding & { priority: number };

/** Provider-specific rules win the name of a merged replacement over the generic ones. */
export const SPECIFIC = 2;
export const GENERIC = 1;
/** A provider's documented format (secret-formats.ts): named like SPECIFIC, judged by its shape. */
export const FORMAT = 1.9;

/**
 * Sorts findings and merges the overlapping ones; a merged replacement is named after its most
 * specific, then longest, contributor.
 */
export function mergeFindings(raw: readonly RawFinding[]): Finding[] {
  const sorted = raw
    .filter((f) => f.end > f.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  let current: RawFinding | undefined;
  let best: RawFinding | undefined;
  const flush = () => {
    if (current && best) merged.push({ rule: best.rule, start: current.start, end: current.end });
  };
  for (const f of sorted) {
    if (current && f.start < current.end) {
      current = { ...current, end: Math.max(current.end, f.end) };
      if (
        best &&
        (f.priority > best.priority ||
          (f.priority === best.priority && f.end - f.start > best.end - best.start))
      ) {
        best = f;
      }
      continue;
    }
    flush();
    current = { ...f };
    best = f;
  }
  flush();
  return merged;
}

export const redactionMarker = (rule: string) => `[REDACTED:${rule}]`;

/**
 * Drops findings that lie wholly inside earlier `[REDACTED:…]` markers, so that redacting a
 * redacted text changes nothing (`https://[REDACTED:github]@host` is not a user and password).
 */
export function dropRedacted(text: string, raw: RawFinding[]): RawFinding[] {
  if (raw.length === 0 || !text.includes(ALREADY_REDACTED)) return raw;
  const markers: Array<[number, number]> = [];
  for (const m of text.matchAll(/\[REDACTED:[A-Za-z0-9_-]*\]/g)) {
    markers.push([m.index, m.index + m[0].length]);
  }
  const covered = (start: number, end: number) => {
    let at = start;
    for (const [a, b] of markers) {
      if (b <= at) continue;
      if (a > at) return false;
      at = b;
      if (at >= end) return true;
    }
    return false;
  };
  return raw.filter((f) => !covered(f.start, f.end));
}

/** Replaces merged, sorted, non-overlapping `findings` in `text`. */
export function applyFindings(text: string, findings: readonly Finding[], offset = 0): string {
  if (findings.length === 0) return text;
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start - offset) + redactionMarker(f.rule);
    at = f.end - offset;
  }
  return out + text.slice(at);
}
