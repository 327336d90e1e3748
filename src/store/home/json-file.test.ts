import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import {
  dropHeldWrite,
  flushJsonWrites,
  holdJsonWrites,
  readJsonFile,
  writeJsonFileAtomic,
} from './json-file.ts';

describe('JSON files', () => {
  test('a missing or broken file reads as null', () => {
    const dir = makeTempDir();
    assert.equal(readJsonFile(join(dir, 'none.json')), null);
    writeFileSync(join(dir, 'broken.json'), '{"a":');
    assert.equal(readJsonFile(join(dir, 'broken.json')), null);
  });

  // Once held (the warm look), for the rest of this process: this test runs last in its file.
  test('held writes are read back at once and reach the disk when flushed', () => {
    const dir = makeTempDir();
    const kept = join(dir, 'kept.json');
    const dropped = join(dir, 'dropped.json');
    writeJsonFileAtomic(kept, { n: 0 });
    holdJsonWrites();
    writeJsonFileAtomic(kept, { n: 1 });
    writeJsonFileAtomic(kept, { n: 2 });
    writeJsonFileAtomic(dropped, { gone: true });
    assert.deepEqual(readJsonFile(kept), { n: 2 }, 'the process reads what it holds');
    assert.equal(readFileSync(kept, 'utf8'), '{"n":0}', 'the disk has the old file meanwhile');
    dropHeldWrite(dropped);
    assert.deepEqual(flushJsonWrites(), []);
    assert.equal(readFileSync(kept, 'utf8'), '{"n":2}');
    assert.equal(existsSync(dropped), false, 'a dropped write is not made');
    writeJsonFileAtomic(join(dir, 'no-such-dir', 'x.json'), 1);
    const failed = flushJsonWrites();
    assert.equal(failed.length, 1, 'a write that fails is reported, not thrown');
    assert.match(failed[0]!.path, /no-such-dir/);
  });
});
