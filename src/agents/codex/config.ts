/**
 * Reading Codex's config.toml for the keys shim needs, without a TOML parser on the hot path: a
 * top-level integer is one `key = 123` line before the first table header.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../store/home/home.ts';
import { getCodexHome } from './sessions.ts';

export function getCodexConfigPath(env: Env): string {
  return join(getCodexHome(env), 'config.toml');
}

/** A top-level integer key of the text, or null. */
export function readTopLevelInteger(text: string, key: string): number | null {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[')) return null;
    const match = new RegExp(`^${key}\\s*=\\s*([0-9_]+)\\s*(?:#.*)?$`).exec(trimmed);
    if (match) return Number(match[1]!.replace(/_/g, ''));
  }
  return null;
}

/** `model_auto_compact_token_limit` of the user's config.toml, or null. */
export function readCompactLimit(env: Env): number | null {
  try {
    return readTopLevelInteger(
      readFileSync(getCodexConfigPath(env), 'utf8'),
      'model_auto_compact_token_limit',
    );
  } catch {
    return null;
  }
}
