import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DatabaseSync } from '@photostructure/sqlite';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { compiledScript } from '../../../test/helpers/script-process.ts';
import { makeDraft } from '../../../test/helpers/store.ts';
import { CheckpointRepository } from '../checkpoints/checkpoint-repository.ts';
import {
  getDatabasePath,
  openDatabase,
  recoverDatabase,
  StoreMovedError,
  withWriteTransaction,
} from './database.ts';
import { hasDamagedBlob, withRecoveryLock } from './recover-database.ts';
import { readRecoveryNotice } from '../home/recovery-notice.ts';

function homeWith(sessions: Record<string, number>): string {
  const home = join(makeTempDir('shim-recover-'), 'home');
  const db = openDatabase(home);
  const repo = new CheckpointRepository(db);
  for (const [sessionId, n] of Object.entries(sessions))
    for (let i = 0; i < n; i++) repo.save(makeDraft({ sessionId }));
  db.close();
  return home;
}

describe('salvaging rows with damaged compressed data', () => {
  test('a gzip blob that does not unpack is damaged; other blobs and text are not', () => {
    const good = gzipSync(Buffer.from('{"a":1}'));
    const bad = Buffer.from(good);
    bad.fill(0x55, 10, bad.length - 8);
    assert.equal(hasDamagedBlob({ a: good, b: 'text', c: 1 }), false);
    assert.equal(hasDamagedBlob({ a: bad }), true);
    assert.equal(hasDamagedBlob({ a: new Uint8Array([1, 2, 3]) }), false, 'not gzip: left alone');
  });

  test('the damaged row stays in the moved file; the session checkpoints and reads again', () => {
    const home = homeWith({ s1: 3, s2: 1 });
    const path = getDatabasePath(home);
    const raw = new DatabaseSync(path);
    const victim = raw
      .prepare(
        "SELECT id, conversation_state FROM checkpoints WHERE session_id = 's1' LIMIT 1 OFFSET 2",
      )
      .get() as { id: string; conversation_state: Uint8Array };
    const damaged = Buffer.from(victim.conversation_state);
    damaged.fill(0x55, 10, damaged.length - 8);
    raw
      .prepare('UPDATE checkpoints SET conversation_state = ? WHERE id = ?')
      .run(damaged, victim.id);
    raw.close();
    // Reading the damaged row fails as users saw it fail.
    const before = openDatabase(home);
    assert.throws(() => new CheckpointRepository(before).getMostRecent('s1'));
    before.close();

    recoverDatabase(home, 'database disk image is malformed (test)');
    const notice = readRecoveryNotice(home)!;
    assert.equal(notice.damaged, 1);
    assert.equal(notice.salvaged.checkpoints, 3);
    const db = openDatabase(home);
    const repo = new CheckpointRepository(db);
    assert.equal(repo.getById(victim.id), null, 'not copied');
    assert.ok(repo.getMostRecent('s1'), 'the session reads');
    repo.save(makeDraft({ sessionId: 's1' }));
    assert.equal(repo.listBySession('s1').length, 3);
    db.close();
    const aside = new DatabaseSync(notice.movedTo, { readOnly: true });
    const kept = aside.prepare('SELECT id FROM checkpoints WHERE id = ?').get(victim.id);
    aside.close();
    assert.ok(kept, 'the damaged row is still in the moved-aside file');
  });
});

describe('one recovery at a time', () => {
  test('a write on a store another process moved aside fails before writing, and the work is redone on the fresh store', () => {
    const home = homeWith({ s1: 1 });
    const stale = openDatabase(home);
    recoverDatabase(home, 'test');
    assert.throws(
      () => withWriteTransaction(stale, () => new CheckpointRepository(stale).save(makeDraft())),
      StoreMovedError,
    );
    // Closing the stale connection must not delete the fresh store's journal files.
    const fresh = openDatabase(home);
    new CheckpointRepository(fresh).save(makeDraft({ sessionId: 's2' }));
    stale.close();
    assert.ok(existsSync(`${getDatabasePath(home)}-wal`), "the fresh store's WAL is still there");
    assert.equal(new CheckpointRepository(fresh).listBySession('s2').length, 1);
    fresh.close();
    const again = openDatabase(home);
    assert.equal(new CheckpointRepository(again).listBySession('s2').length, 1);
    again.close();
  });

  test('a recovery already done by another process is not done again', () => {
    const home = homeWith({ s1: 2 });
    const seen = openDatabase(home);
    seen.close();
    recoverDatabase(home, 'first', seen);
    recoverDatabase(home, 'second', seen);
    const moved = readdirSync(home).filter((f) => /^shim\.db\.corrupt-.*\d$/.test(f));
    assert.equal(moved.length, 1, moved.join(', '));
  });

  test('a second process waits for the lock while a recovery runs', async () => {
    const home = homeWith({ s1: 1 });
    // ./recovery-lock-holder.test-helper.ts
    const holder = spawn(
      process.execPath,
      [compiledScript(join(import.meta.dirname, 'recovery-lock-holder.test-helper.ts')), home],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    await new Promise<void>((resolve) =>
      holder.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('held')) resolve();
      }),
    );
    // Had it not waited, the holder would not have finished its work yet.
    const doneBeforeUs = withRecoveryLock(home, () => existsSync(join(home, 'released')));
    await new Promise((resolve) => holder.once('exit', resolve));
    assert.equal(doneBeforeUs, true, 'the second waited for the first to finish');
    assert.ok(statSync(getDatabasePath(home)).size > 0);
  });
});
