/**
 * Text PostgreSQL refuses, made text it takes and back again: U+0000 (no `text` or `jsonb` value
 * may hold it) and a lone UTF-16 surrogate (not a character: `jsonb` refuses its `\ud800`). Each
 * becomes an escape that starts with U+E000 (a private-use character), and U+E000 itself is
 * escaped, so every string comes back as it went: `\uE0000` for U+0000, `\uE000e` for U+E000,
 * `\uE000u` and four hex digits for a surrogate. Keys of objects are escaped like values.
 * @module
 */

const ESC = '\uE000';
// The control character is the point: U+0000 is what PostgreSQL refuses.
// eslint-disable-next-line no-control-regex
const NEEDS = /[\u0000\uE000\uD800-\uDFFF]/;
const FOUND =
  // eslint-disable-next-line no-control-regex
  /\u0000|\uE000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPED = /\uE000(?:0|e|u([0-9a-f]{4}))/g;

export function escapeText(text: string): string {
  if (!NEEDS.test(text)) return text;
  return text.replace(FOUND, (c) =>
    c === '\u0000'
      ? `${ESC}0`
      : c === ESC
        ? `${ESC}e`
        : `${ESC}u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function unescapeText(text: string): string {
  if (!text.includes(ESC)) return text;
  return text.replace(ESCAPED, (all: string, hex: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : all === `${ESC}0` ? '\u0000' : ESC,
  );
}

function walk(value: unknown, on: (text: string) => string): unknown {
  if (typeof value === 'string') return on(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, on));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [on(k), walk(v, on)]));
  return value;
}

/** `value` with every string (and key) escaped for PostgreSQL. */
export const escapeValue = <T>(value: T): T => walk(value, escapeText) as T;

/** The inverse of {@link escapeValue}. */
export const unescapeValue = <T>(value: T): T => walk(value, unescapeText) as T;
