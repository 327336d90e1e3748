import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { writeFileDurably } from './safe-file.ts';

describe('writeFileDurably', () => {
  test('writes the whole file and leaves no temp file', () => {
    const dir = makeTempDir('shim-safe-file-');
    writeFileDurably(join(dir, 'note.json'), Buffer.from('{"v":1}'));
    assert.equal(readFileSync(join(dir, 'note.json'), 'utf8'), '{"v":1}');
    assert.deepEqual(readdirSync(dir), ['note.json']);
  });

  test('a write that fails leaves no temp file behind', () => {
    const dir = makeTempDir('shim-safe-file-');
    // A directory that is not empty where the file goes: the final rename fails.
    mkdirSync(join(dir, 'note.json'));
    writeFileSync(join(dir, 'note.json', 'inside'), '');
    assert.throws(() => writeFileDurably(join(dir, 'note.json'), Buffer.from('{"v":1}')));
    assert.deepEqual(readdirSync(dir), ['note.json']);
  });
});
