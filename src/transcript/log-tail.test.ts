import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../test/helpers/fixtures.ts';
import { MAX_TAIL_BYTES, readTail } from './log-tail.ts';

describe('readTail', () => {
  test('the bytes after the offset; null for a shorter (rewritten) or a far longer file', () => {
    const path = join(makeTempDir('shim-tail-'), 'session.jsonl');
    writeFileSync(path, 'first line\n');
    appendFileSync(path, 'second line\n');
    assert.equal(readTail(path, 11), 'second line\n');
    assert.equal(readTail(path, 23), '');
    assert.equal(readTail(path, 24), null);
    appendFileSync(path, 'x'.repeat(MAX_TAIL_BYTES + 1));
    assert.equal(readTail(path, 11), null);
    assert.equal(readTail(join(path, 'missing'), 0), null);
  });
});
