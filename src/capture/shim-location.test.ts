import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { findShimPackage, isEphemeralPath } from './shim-location.ts';

describe('where the running shim is', () => {
  test('walks up from a module (src or dist/chunks) to the package and its bin', () => {
    const root = resolve(import.meta.dirname, '..', '..');
    const version = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    ).version;
    const expected = { root, bin: join(root, 'bin', 'shim.cjs'), version };
    assert.deepEqual(findShimPackage(import.meta.dirname), expected);
    assert.deepEqual(findShimPackage(join(root, 'dist', 'chunks')), expected);
  });

  test('finds nothing outside the package', () => {
    assert.equal(findShimPackage(mkdtempSync(join(tmpdir(), 'shim-nopkg-'))), null);
  });

  test('recognises package-runner caches', () => {
    assert.equal(isEphemeralPath('/home/me/.npm/_npx/1a2b/node_modules/shim/dist/shim.js'), true);
    assert.equal(isEphemeralPath('/usr/local/lib/node_modules/shim/dist/shim.js'), false);
  });
});
