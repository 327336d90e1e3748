/**
 * The runner's order (scripts/test-order.mjs): a group's files longest first, a CPU-bound group
 * cut into batches of about equal time, a file without a time counted as the median, times kept
 * from run to run.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a plain ES module of the build scripts, without types
import { batch, readTimes, saveTimes, weigh } from '../scripts/test-order.mjs';
import { makeTempDir } from './helpers/fixtures.ts';

const batchOf = batch as (files: string[], times: object, count?: number) => string[][];

test('one batch: the files longest first, equal times in their given order', () => {
  const times = { 'a.ts': 10, 'b.ts': 300, 'c.ts': 20, 'd.ts': 300 };
  assert.deepEqual(batchOf(['a.ts', 'b.ts', 'c.ts', 'd.ts'], times), [
    ['b.ts', 'd.ts', 'c.ts', 'a.ts'],
  ]);
});

test('batches of about equal time, each longest first, every file once', () => {
  const times: Record<string, number> = {};
  const files = Array.from({ length: 30 }, (_, i) => `f${i}.ts`);
  files.forEach((f, i) => (times[f] = ((i * 37) % 23) * 100 + 50));
  const batches = batchOf(files, times, 3);
  assert.equal(batches.length, 3);
  assert.deepEqual(batches.flat().sort(), [...files].sort());
  const sums = batches.map((b) => b.reduce((n, f) => n + times[f]!, 0));
  const largest = Math.max(...files.map((f) => times[f]!));
  // Longest-first into the lightest batch: no two batches differ by more than one file's time.
  assert.ok(Math.max(...sums) - Math.min(...sums) <= largest, `sums ${sums.join(', ')}`);
  for (const b of batches)
    assert.deepEqual(
      b.map((f) => times[f]!),
      b.map((f) => times[f]!).sort((x, y) => y - x),
    );
});

test('a file never timed counts as the median of the known; more batches than files: one each', () => {
  const weights = (weigh as (f: string[], t: object) => Map<string, number>)(
    ['a.ts', 'b.ts', 'c.ts', 'new.ts'],
    { 'a.ts': 1, 'b.ts': 5, 'c.ts': 9 },
  );
  assert.equal(weights.get('new.ts'), 5);
  assert.deepEqual(batchOf(['x.ts', 'y.ts'], {}, 3), [['x.ts'], ['y.ts']]);
});

test("a run's times are kept for the next, the repository's only when asked", () => {
  const root = makeTempDir('shim-test-order-');
  mkdirSync(join(root, 'scripts'));
  writeFileSync(join(root, 'scripts', 'test-times.json'), JSON.stringify({ 'a.ts': 100 }));
  saveTimes(root, { 'b.ts': 2000.4, 'broken.ts': null });
  assert.deepEqual(readTimes(root), { 'a.ts': 100, 'b.ts': 2000 });
  assert.deepEqual(JSON.parse(readFileSync(join(root, 'scripts', 'test-times.json'), 'utf8')), {
    'a.ts': 100,
  });
  saveTimes(root, { 'a.ts': 150 }, { shared: true });
  assert.deepEqual(JSON.parse(readFileSync(join(root, 'scripts', 'test-times.json'), 'utf8')), {
    'a.ts': 150,
  });
  assert.equal(readTimes(root)['a.ts'], 150);
});
