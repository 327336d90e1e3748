import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../test/helpers/fixtures.ts';
import { makeDraft } from '../../test/helpers/store.ts';
import { openDatabase, recoverDatabase } from '../store/sqlite/database.ts';
import { CheckpointRepository } from '../store/checkpoints/checkpoint-repository.ts';
import { withStore } from './open-store.ts';

function homeWithOneCheckpoint(): string {
  const home = join(makeTempDir('shim-open-store-'), 'home');
  const db = openDatabase(home);
  new CheckpointRepository(db).save(makeDraft({ sessionId: 's1' }));
  db.close();
  return home;
}

describe('withStore: the store rebuilt by another process during the work', () => {
  test('whatever failed on the connection moved aside, the work runs again on the fresh store', async () => {
    const home = homeWithOneCheckpoint();
    let attempts = 0;
    const saved = await withStore(home, (store) => {
      attempts++;
      if (attempts === 1) {
        // Another process's recovery moves the file from under this connection; what this
        // work then meets on it is not a write's StoreMovedError (as in the soak: a read).
        recoverDatabase(home, 'damaged elsewhere');
        throw new Error('no such table: learned_secrets');
      }
      return store.checkpoints.save(makeDraft({ sessionId: 's2' }));
    });
    assert.equal(attempts, 2);
    assert.equal(readdirSync(home).filter((f) => /^shim\.db\.corrupt-.*\d$/.test(f)).length, 1);
    const db = openDatabase(home);
    const repo = new CheckpointRepository(db);
    assert.equal(repo.getById(saved.checkpoint.id)?.sessionId, 's2', 'stored in the fresh store');
    assert.equal(repo.listBySession('s1').length, 1, 'the rows before were salvaged');
    db.close();
  });

  test('the same error on a store nobody moved is the error it is', async () => {
    const home = homeWithOneCheckpoint();
    let attempts = 0;
    await assert.rejects(
      withStore(home, () => {
        attempts++;
        throw new Error('no such table: learned_secrets');
      }),
      /no such table/,
    );
    assert.equal(attempts, 1);
  });
});
