/** A tool's input as the session keeps it: its strings redacted, rendered, cut short. @module */
import { clip, MAX_TOKEN, summarizeValue } from '../core/truncate.ts';
import { secretFree } from './scrub.ts';

/**
 * A copy of a tool input with its strings redacted, as far as a rendering of `budget`
 * characters can show them: the rendering escapes quotes and newlines, which hides secrets
 * from the patterns, so they are found in the strings themselves first.
 */
function redactInput(input: unknown, budget: number): unknown {
  let left = budget;
  const walk = (v: unknown, depth: number): unknown => {
    if (left <= 0) return '';
    if (typeof v === 'string') {
      const kept = v.length > left + MAX_TOKEN ? clip(v, left + MAX_TOKEN) : v;
      left -= kept.length;
      return secretFree(kept);
    }
    if (v === null || typeof v !== 'object' || depth > 6) return v;
    if (Array.isArray(v)) return v.slice(0, 50).map((item) => walk(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v).slice(0, 50)) {
      out[key] = walk((v as Record<string, unknown>)[key], depth + 1);
    }
    return out;
  };
  return walk(input, 0);
}

/** Tool input as the state keeps it: strings redacted, rendered, cut between tokens. */
export const summarizeInput = (input: unknown, max: number) =>
  clip(summarizeValue(redactInput(input, max + MAX_TOKEN), max + MAX_TOKEN), max);
