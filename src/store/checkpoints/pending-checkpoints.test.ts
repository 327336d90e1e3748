import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { saveCursor } from '../cache/cursor-cache.ts';
import {
  claimPendingCheckpoint,
  completePendingCheckpoint,
  countFailedPendingCheckpoints,
  failPendingCheckpoint,
  hasPendingCheckpoints,
  listPendingCheckpoints,
  MAX_ATTEMPTS,
  pendingCursorPath,
  writePendingCheckpoint,
  type PendingCheckpoint,
} from './pending-checkpoints.ts';
import { createCursor } from '../../transcript/reader.ts';

function note(id: string, at: number, transcriptPath = '/t/session.jsonl'): PendingCheckpoint {
  return {
    v: 1,
    id,
    sessionId: 'session-1',
    transcriptPath,
    transcriptBytes: 1234,
    cwd: '/w',
    at,
    trigger: 'risky_operation',
    reason: 'before git reset --hard',
    git: null,
    attempts: 0,
  };
}

/** A pid no process has: a child that has exited. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout,
  );
}

describe('pending checkpoints', () => {
  test('a note is listed oldest first, claimed by one process only, and gone once completed', () => {
    const home = makeTempDir('shim-pending-');
    assert.equal(hasPendingCheckpoints(home), false);
    writePendingCheckpoint(home, note('bbbb-2', 2_000));
    writePendingCheckpoint(home, note('aaaa-1', 1_000));
    assert.equal(hasPendingCheckpoints(home), true);
    const list = listPendingCheckpoints(home);
    assert.equal(list.building, 0);
    assert.deepEqual(
      list.waiting.map((k) => k.replace(/^\d+-/, '')),
      ['aaaa-1', 'bbbb-2'],
      'the older hook first, whatever its id',
    );
    const claimed = claimPendingCheckpoint(home, list.waiting[0]!);
    assert.equal(claimed?.note.id, 'aaaa-1');
    assert.equal(claimPendingCheckpoint(home, list.waiting[0]!), null, 'taken once');
    completePendingCheckpoint(home, claimed!);
    assert.deepEqual(
      listPendingCheckpoints(home).waiting.map((k) => k.replace(/^\d+-/, '')),
      ['bbbb-2'],
    );
  });

  test('a claim whose process is gone goes back to the queue; a live one counts as being built', () => {
    const home = makeTempDir('shim-pending-');
    writePendingCheckpoint(home, note('cccc-3', 3_000));
    const [key] = listPendingCheckpoints(home).waiting;
    const dir = join(home, 'pending');
    // A builder killed while it held the note.
    renameSync(join(dir, `${key}.json`), join(dir, `${key}.json.taken-${deadPid()}`));
    assert.deepEqual(listPendingCheckpoints(home), { waiting: [key], building: 0 });
    // A builder still at work (this test's parent process is alive).
    renameSync(join(dir, `${key}.json`), join(dir, `${key}.json.taken-${process.ppid}`));
    assert.deepEqual(listPendingCheckpoints(home), { waiting: [], building: 1 });
    assert.equal(hasPendingCheckpoints(home), true, 'a note being built still counts');
  });

  test("a note's temp file whose writer was killed is removed; a live writer's is left", () => {
    const home = makeTempDir('shim-pending-');
    writePendingCheckpoint(home, note('dddd-4', 4_000));
    const dir = join(home, 'pending');
    const killed = `000000000005000-eeee-5.json.${deadPid()}.tmp`;
    const writing = `000000000006000-ffff-6.json.${process.ppid}.tmp`;
    writeFileSync(join(dir, killed), '{"v":1,"id":"ee');
    writeFileSync(join(dir, writing), '{"v":1,"id":"ff');
    const list = listPendingCheckpoints(home);
    assert.deepEqual(
      list.waiting.map((k) => k.replace(/^\d+-/, '')),
      ['dddd-4'],
    );
    const left = readdirSync(dir);
    assert.ok(!left.includes(killed), "the dead writer's temp is gone");
    assert.ok(left.includes(writing), 'a write under way is not touched');
  });

  test('a failed build goes back with its attempt counted, and is set aside at the last', () => {
    const home = makeTempDir('shim-pending-');
    writePendingCheckpoint(home, note('dddd-4', 4_000));
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const [key] = listPendingCheckpoints(home).waiting;
      const claimed = claimPendingCheckpoint(home, key!)!;
      assert.equal(claimed.note.attempts, attempt - 1);
      assert.equal(failPendingCheckpoint(home, claimed), attempt === MAX_ATTEMPTS);
    }
    assert.deepEqual(listPendingCheckpoints(home).waiting, []);
    assert.equal(countFailedPendingCheckpoints(home), 1);
  });

  test('an unreadable note is set aside, not retried forever', () => {
    const home = makeTempDir('shim-pending-');
    writePendingCheckpoint(home, note('eeee-5', 5_000));
    const [key] = listPendingCheckpoints(home).waiting;
    writeFileSync(join(home, 'pending', `${key}.json`), '{"v":1,"id":');
    assert.equal(claimPendingCheckpoint(home, key!), null);
    assert.deepEqual(listPendingCheckpoints(home).waiting, []);
    assert.equal(countFailedPendingCheckpoints(home), 1);
  });

  test('the note keeps a copy of the transcript cursor as the hook saw it, and no temp file', () => {
    const home = makeTempDir('shim-pending-');
    const transcript = join(home, 'session.jsonl');
    saveCursor(home, transcript, { ...createCursor('claude'), offset: 77 });
    writePendingCheckpoint(home, note('ffff-6', 6_000, transcript));
    const copy = JSON.parse(readFileSync(pendingCursorPath(home, 'ffff-6'), 'utf8')) as {
      offset: number;
    };
    assert.equal(copy.offset, 77);
    // Later calls move the cache on; the copy stays where the hook was.
    saveCursor(home, transcript, { ...createCursor('claude'), offset: 999 });
    assert.equal(
      (JSON.parse(readFileSync(pendingCursorPath(home, 'ffff-6'), 'utf8')) as { offset: number })
        .offset,
      77,
    );
    assert.deepEqual(
      readdirSync(join(home, 'pending')).filter((n) => n.endsWith('.tmp')),
      [],
    );
    const claimed = claimPendingCheckpoint(home, listPendingCheckpoints(home).waiting[0]!)!;
    completePendingCheckpoint(home, claimed);
    assert.equal(existsSync(pendingCursorPath(home, 'ffff-6')), false);
  });
});
