/**
 * The shared fixtures (real transcripts, gitleaks' samples) are other repositories' data: no
 * file of the project may be a copy of one, compressed or not.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { SHARED_FIXTURES_DIR, sharedFixturesMissing } from './helpers/fixtures.ts';

const ROOT = join(import.meta.dirname, '..');

/** Hashes of a file's bytes and, for gzip, of what it holds. */
function hashes(path: string): string[] {
  const bytes = readFileSync(path);
  const out = [createHash('sha256').update(bytes).digest('hex')];
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      out.push(createHash('sha256').update(gunzipSync(bytes)).digest('hex'));
    } catch {
      // not gzip after all
    }
  }
  return out;
}

function walk(dir: string, files: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, files);
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

test(
  'no project file is a copy of a file under the shared fixtures',
  {
    skip: sharedFixturesMissing(SHARED_FIXTURES_DIR),
  },
  () => {
    const shared = new Map<string, string>();
    for (const path of walk(SHARED_FIXTURES_DIR)) {
      // Short files (a README line, an empty file) say nothing about where they came from.
      if (statSync(path).size < 256) continue;
      for (const h of hashes(path)) shared.set(h, path);
    }
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f !== '');
    assert.ok(tracked.length > 100, `git ls-files: ${tracked.length} files`);
    const copies: string[] = [];
    for (const file of tracked) {
      const path = join(ROOT, file);
      let size: number;
      try {
        size = statSync(path).size;
      } catch {
        continue; // deleted in the work tree
      }
      if (size < 256) continue;
      for (const h of hashes(path)) {
        const original = shared.get(h);
        if (original) copies.push(`${file} = ${original}`);
      }
    }
    assert.deepEqual(copies, []);
  },
);
