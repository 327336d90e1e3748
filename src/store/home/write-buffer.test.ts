import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { dropHeldWrite, readJsonFile, writeJsonFileAtomic } from './json-file.ts';
import { heldBy, WriteBuffer } from './write-buffer.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('a write buffer', () => {
  test('held writes are read back at once and reach the disk when flushed', async () => {
    const dir = makeTempDir();
    const kept = join(dir, 'kept.json');
    const dropped = join(dir, 'dropped.json');
    writeJsonFileAtomic(kept, { n: 0 });
    const buffer = await WriteBuffer.create();
    await buffer.hold(async () => {
      writeJsonFileAtomic(kept, { n: 1 });
      await tick(); // still held after an await
      writeJsonFileAtomic(kept, { n: 2 });
      writeJsonFileAtomic(dropped, { gone: true });
      assert.deepEqual(readJsonFile(kept), { n: 2 }, 'the work reads what it holds');
      dropHeldWrite(dropped);
    });
    assert.equal(readFileSync(kept, 'utf8'), '{"n":0}', 'the disk has the old file meanwhile');
    assert.deepEqual(readJsonFile(kept), { n: 0 }, 'outside the buffer, the file is read');
    assert.deepEqual(buffer.flush(), []);
    assert.equal(readFileSync(kept, 'utf8'), '{"n":2}');
    assert.equal(existsSync(dropped), false, 'a dropped write is not made');
    buffer.hold(() => writeJsonFileAtomic(join(dir, 'no-such-dir', 'x.json'), 1));
    const failed = buffer.flush();
    assert.equal(failed.length, 1, 'a write that fails is reported, not thrown');
    assert.match(failed[0]!.path, /no-such-dir/);
  });

  test('only the work inside it is held: other work, before and beside it, writes at once', async () => {
    const dir = makeTempDir();
    const path = join(dir, 'a.json');
    const buffer = await WriteBuffer.create();
    assert.equal(heldBy(), undefined);
    let release!: () => void;
    const inside = buffer.hold(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      assert.equal(heldBy(), buffer);
      writeJsonFileAtomic(path, { by: 'look' });
    });
    // Beside the held work (another caller of this process), between its awaits.
    writeJsonFileAtomic(path, { by: 'beside' });
    assert.equal(readFileSync(path, 'utf8'), '{"by":"beside"}');
    release();
    await inside;
    assert.equal(readFileSync(path, 'utf8'), '{"by":"beside"}', 'the look waits for the flush');
    buffer.flush();
    assert.equal(readFileSync(path, 'utf8'), '{"by":"look"}');
  });

  test('two buffers hold apart', async () => {
    const dir = makeTempDir();
    const path = join(dir, 'a.json');
    const one = await WriteBuffer.create();
    const two = await WriteBuffer.create();
    one.hold(() => writeJsonFileAtomic(path, 1));
    two.hold(() => assert.equal(readJsonFile(path), null, "the other buffer's write is not seen"));
    assert.equal(two.read(path), undefined);
    assert.equal(one.read(path), '1');
  });

  test('jobs wait for startJobs, in order; clear forgets writes and jobs', async () => {
    const buffer = await WriteBuffer.create();
    const started: number[] = [];
    buffer.holdJob(async () => void started.push(1));
    buffer.holdJob(async () => void started.push(2));
    assert.equal(started.length, 0);
    await buffer.startJobs();
    assert.deepEqual(started, [1, 2]);
    await buffer.startJobs();
    assert.deepEqual(started, [1, 2], 'each job once');
    buffer.holdJob(async () => void started.push(3));
    buffer.write('/nowhere/x.json', '1');
    buffer.clear();
    await buffer.startJobs();
    assert.deepEqual(buffer.flush(), []);
    assert.deepEqual(started, [1, 2]);
  });
});
