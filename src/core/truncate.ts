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

/** Characters a secret token is made of (keys, base64, URLs with credentials). */
const TOKEN_CHAR = /[A-Za-z0-9_\-+/=.~%:@]/;
/** Longer runs are data (a hash dump, a minified line), not one secret: cut them anywhere. */
export const MAX_TOKEN = 256;

/**
 * Like {@link truncate}, but never cuts inside a token: a run of token characters the cut would
 * split is dropped whole. Text cut before redaction must not leave half a secret behind — the
 * half no rule recognises anymore.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  const hard = Math.max(0, max - 1);
  let cut = hard;
  if (TOKEN_CHAR.test(text[cut] ?? '')) {
    let end = hard;
    while (end < text.length && end - hard < MAX_TOKEN && TOKEN_CHAR.test(text[end] ?? '')) end++;
    while (cut > 0 && end - cut < MAX_TOKEN && TOKEN_CHAR.test(text[cut - 1] ?? '')) cut--;
    // A run longer than any secret is data: cut it where the limit falls.
    if (end - cut >= MAX_TOKEN) cut = hard;
  }
  return `${text.slice(0, cut)}…`;
}

/** The last `max` characters of `text`, starting after a token rather than inside one. */
export function clipStart(text: string, max: number): string {
  if (text.length <= max) return text;
  const hard = text.length - max;
  let start = hard;
  if (TOKEN_CHAR.test(text[start - 1] ?? '')) {
    let begin = hard;
    while (begin > 0 && hard - begin < MAX_TOKEN && TOKEN_CHAR.test(text[begin - 1] ?? '')) begin--;
    while (start < text.length && start - begin < MAX_TOKEN && TOKEN_CHAR.test(text[start] ?? ''))
      start++;
    if (start - begin >= MAX_TOKEN) start = hard;
  }
  return text.slice(start);
}
