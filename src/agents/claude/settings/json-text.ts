/**
 * Settings files as text: parse strictly (a file shim cannot read is never overwritten) and write
 * back in the file's own style — its indentation unit, line endings, final newline and BOM.
 * @module
 */
import { AppError } from '../../../core/errors.ts';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

export type JsonStyle = {
  /** The indentation unit ('' for a one-line file). */
  indent: string;
  newline: '\n' | '\r\n';
  finalNewline: boolean;
  bom: boolean;
};

/** The style of a file shim creates. */
export const DEFAULT_JSON_STYLE: JsonStyle = {
  indent: '  ',
  newline: '\n',
  finalNewline: true,
  bom: false,
};

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets a key as an own data property, even one named `__proto__`. */
export function setKey(object: JsonObject, key: string, value: Json): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

export function detectJsonStyle(text: string): JsonStyle {
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  const newline = body.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = /\n$/.test(body);
  const content = body.trim();
  if (content === '' || content === '{}') return { ...DEFAULT_JSON_STYLE, bom };
  if (!content.includes('\n')) return { indent: '', newline, finalNewline, bom };
  // The first indented line sits one level deep: its leading whitespace is the unit.
  const indent = /\n([ \t]+)\S/.exec(content)?.[1] ?? DEFAULT_JSON_STYLE.indent;
  // JSON.stringify accepts at most 10 characters of indentation.
  return { indent: indent.slice(0, 10), newline, finalNewline, bom };
}

export function formatJson(value: Json, style: JsonStyle): string {
  let text = JSON.stringify(value, null, style.indent);
  // JSON.stringify escapes newlines inside strings, so every real newline is layout.
  if (style.newline === '\r\n') text = text.replace(/\n/g, '\r\n');
  return `${style.bom ? '\uFEFF' : ''}${text}${style.finalNewline ? style.newline : ''}`;
}

/** Deeper than any real settings file; deep enough values overflow the stack when walked. */
const MAX_DEPTH = 100;

/** The deepest nesting of objects and arrays in JSON text (strings skipped). */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return max;
}

/**
 * Parses a settings file. Whitespace only counts as `{}`; anything else that is not a JSON object
 * is refused with the reason and where to look.
 */
export function parseSettingsText(text: string, path: string): JsonObject {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return {};
  const depth = nestingDepth(body);
  if (depth > MAX_DEPTH) {
    throw new AppError(
      'CONFIG_INVALID',
      `${path} nests ${depth} levels deep (a settings file needs a handful); shim did not touch it`,
      'the file is damaged or generated wrongly: fix or replace it, then run the command again',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new AppError(
      'CONFIG_INVALID',
      `${path} is not valid JSON (${(error as Error).message}); shim did not touch it`,
      'fix the file (Claude Code cannot read it either), then run the command again',
    );
  }
  if (!isJsonObject(value)) {
    throw new AppError(
      'CONFIG_INVALID',
      `${path} does not hold a JSON object; shim did not touch it`,
      'a settings file is an object like {"hooks": {…}}; fix it, then run the command again',
    );
  }
  return value;
}
