/** Bounded text from unbounded input: tool arguments, results, prompts. */

/** Cuts `text` to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * JSON-like rendering of any value that stops at `max` characters and a fixed depth, so a
 * 10,000-deep or 50 MB tool input costs no more than a small one (JSON.stringify would
 * recurse through all of it).
 */
export function summarizeValue(value: unknown, max: number, depthLimit = 6): string {
  let out = '';
  const emit = (s: string): boolean => {
    out += s;
    return out.length <= max;
  };
  const walk = (v: unknown, depth: number): boolean => {
    if (v === null || typeof v !== 'object') {
      const s =
        typeof v === 'string' ? JSON.stringify(v.length > max ? v.slice(0, max) : v) : String(v);
      return emit(s);
    }
    if (depth >= depthLimit) return emit(Array.isArray(v) ? '[…]' : '{…}');
    if (Array.isArray(v)) {
      if (!emit('[')) return false;
      for (let i = 0; i < v.length; i++) {
        if (i > 0 && !emit(',')) return false;
        if (!walk(v[i], depth + 1)) return false;
      }
      return emit(']');
    }
    if (!emit('{')) return false;
    let first = true;
    for (const key of Object.keys(v)) {
      if (!first && !emit(',')) return false;
      first = false;
      if (!emit(`${JSON.stringify(key.length > max ? key.slice(0, max) : key)}:`)) return false;
      if (!walk((v as Record<string, unknown>)[key], depth + 1)) return false;
    }
    return emit('}');
  };
  walk(value, 0);
  return truncate(out, max);
}
