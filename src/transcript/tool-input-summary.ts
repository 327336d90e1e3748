/** A tool's input as the session keeps it: its strings redacted, rendered, cut short. @module */
import type { SessionState } from '../core/session.ts';
import { clip, MAX_TOKEN, summarizeValue } from '../core/truncate.ts';
import type { SecretMemory } from '../redact/redact.ts';
import { keepMemory, memoryOf } from './session-memory.ts';
import { redactionMarker } from '../redact/findings.ts';
import { secretFileName } from '../redact/secret-files.ts';
import { secretFree } from './scrub.ts';

/** Input fields that name the file a tool writes or edits (the others are its content). */
const PATH_FIELDS = new Set([
  'file_path',
  'filePath',
  'path',
  'absolute_path',
  'absolutePath',
  'notebook_path',
  'filename',
  'file',
  'target_file',
]);

/**
 * A tool writing or editing a secret file (`Write` of `.env`, an edit of `id_rsa`): what it
 * writes is the file's content, kept as a stand-in; the path and the other small fields stay.
 */
function withoutSecretFileContent(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  const named = Object.keys(record).some(
    (k) =>
      PATH_FIELDS.has(k) && typeof record[k] === 'string' && secretFileName(record[k]) !== null,
  );
  if (!named) return input;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record))
    out[k] =
      PATH_FIELDS.has(k) || typeof v === 'number' || typeof v === 'boolean'
        ? v
        : redactionMarker('secret-file');
  return out;
}

/**
 * A copy of a tool input with its strings redacted, as far as a rendering of `budget`
 * characters can show them: the rendering escapes quotes and newlines, which hides secrets
 * from the patterns, so they are found in the strings themselves first.
 */
function redactInput(input: unknown, budget: number, memory?: SecretMemory): unknown {
  let left = budget;
  const walk = (v: unknown, depth: number): unknown => {
    if (left <= 0) return '';
    if (typeof v === 'string') {
      const kept = v.length > left + MAX_TOKEN ? clip(v, left + MAX_TOKEN) : v;
      left -= kept.length;
      return secretFree(kept, memory);
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

/**
 * Tool input as the state keeps it: strings redacted, rendered, cut between tokens. With the
 * session's `state`, what is found joins its memory of secrets (transcript/scrub.ts), so the
 * same value is replaced wherever else the session holds it.
 */
export function summarizeInput(input: unknown, max: number, state?: SessionState): string {
  const memory = state ? memoryOf(state) : undefined;
  const kept = clip(
    summarizeValue(
      redactInput(withoutSecretFileContent(input), max + MAX_TOKEN, memory),
      max + MAX_TOKEN,
    ),
    max,
  );
  if (state && memory) keepMemory(state, memory);
  return kept;
}

/** The input fields that say what a call acts on, most telling first (every agent's tools). */
const TARGET_FIELDS = [
  'file_path',
  'notebook_path',
  'absolute_path',
  'path',
  'dir_path',
  'file',
  'command',
  'cmd',
  'pattern',
  'query',
  'url',
  'subject',
  'taskId',
  'description',
  'prompt',
];

/**
 * What a tool call acts on, in a few words, redacted: the first of its input's telling fields
 * (a file, a command, a pattern, a URL…), on one line. '' when the input says none.
 */
export function toolTarget(input: unknown, max = 160): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return '';
  const fields = input as Record<string, unknown>;
  for (const key of TARGET_FIELDS) {
    const v = fields[key];
    const text =
      typeof v === 'string' || typeof v === 'number'
        ? String(v)
        : Array.isArray(v) && v.every((p) => typeof p === 'string')
          ? v.join(' ')
          : '';
    const flat = text.replace(/\s+/g, ' ').trim();
    if (flat !== '') return secretFree(clip(flat, max));
  }
  return '';
}
