import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { readStatuslineFigures, writeStatuslineFigures } from './statusline-figures.ts';

const T = Date.parse('2026-11-26T04:00:00.000Z');
const MINUTE = 60_000;

describe("the statusline's figures", () => {
  test('a render repeating the last figures writes nothing; a change or their age does', () => {
    const home = makeTempDir('shim-figures-');
    const file = join(home, 'cache', 'statusline', 's1.json');
    writeStatuslineFigures(home, 's1', { at: T, contextTokens: 1000, windowTokens: 200_000 });
    const written = statSync(file).ino;
    writeStatuslineFigures(home, 's1', {
      at: T + MINUTE,
      contextTokens: 1000,
      windowTokens: 200_000,
    });
    assert.equal(statSync(file).ino, written, 'the same figures a minute later: not replaced');
    assert.equal(readStatuslineFigures(home, 's1', T + MINUTE)?.at, T);

    writeStatuslineFigures(home, 's1', {
      at: T + 2 * MINUTE,
      contextTokens: 1500,
      windowTokens: 200_000,
    });
    assert.equal(readStatuslineFigures(home, 's1', T + 2 * MINUTE)?.contextTokens, 1500);

    writeStatuslineFigures(home, 's1', {
      at: T + 8 * MINUTE,
      contextTokens: 1500,
      windowTokens: 200_000,
    });
    assert.equal(
      readStatuslineFigures(home, 's1', T + 8 * MINUTE)?.at,
      T + 8 * MINUTE,
      'older than five minutes: written again, so readers never find them stale',
    );
  });
});
