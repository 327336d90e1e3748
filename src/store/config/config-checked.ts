/**
 * Config files already found valid, remembered by their text (SHIM_HOME/cache/config/): the hooks
 * and the statusline load the config on every call, and checking a file against its schema loads
 * zod (40–150 ms of module loading here, more than the whole call). A file whose text was valid
 * once is valid again without zod; any change to the text checks it anew. Commands (strict loads)
 * always check and refresh the record.
 * @module
 */
import { join } from 'node:path';
import { fnvHash } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

function getPath(home: string, path: string): string {
  return join(home, 'cache', 'config', `${fnvHash(path)}.json`);
}

const fingerprint = (text: string) => `${text.length}-${fnvHash(text)}`;

/** True when this exact text of `path` was checked and found valid. */
export function wasFoundValid(home: string, path: string, text: string): boolean {
  const record = readJsonFile(getPath(home, path)) as { path?: unknown; text?: unknown } | null;
  return record?.path === path && record.text === fingerprint(text);
}

/** Remembers that this text of `path` is valid (best effort: a cache). */
export function rememberValid(home: string, path: string, text: string): void {
  try {
    ensureDir(home, 'cache', 'config');
    writeJsonFileAtomic(getPath(home, path), { path, text: fingerprint(text) });
  } catch {
    // without the record the next call checks again
  }
}
