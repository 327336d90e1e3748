import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { readJsonFile } from './json-file.ts';

describe('JSON files', () => {
  test('a missing or broken file reads as null', () => {
    const dir = makeTempDir();
    assert.equal(readJsonFile(join(dir, 'none.json')), null);
    writeFileSync(join(dir, 'broken.json'), '{"a":');
    assert.equal(readJsonFile(join(dir, 'broken.json')), null);
  });
});
