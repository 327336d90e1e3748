import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { compiledScript } from '../../../test/helpers/script-process.ts';
import { getDatabasePath, openDatabase, withWriteTransaction } from './database.ts';
import { isAsLeftClean } from './recover-database.ts';

describe('a clean close', () => {
  test('leaves the file as recorded, even when a statement outlives the close (no check next time)', () => {
    const home = makeTempDir('shim-db-close-');
    // A process that writes, keeps a statement alive past close() and exits: the driver then
    // finishes the close at exit, after the close was recorded (./close-writer.test-helper.ts).
    const writer = compiledScript(join(import.meta.dirname, 'close-writer.test-helper.ts'));
    for (let run = 0; run < 2; run++) {
      const r = spawnSync(process.execPath, [writer, home], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(isAsLeftClean(home, getDatabasePath(home)), `after run ${run + 1}`);
    }
  });
});

describe('withWriteTransaction', () => {
  test('inside an open transaction, the work joins it: one commit, and its rollback undoes both', () => {
    const home = makeTempDir('shim-db-nested-');
    const db = openDatabase(home);
    try {
      db.exec('CREATE TABLE IF NOT EXISTS probe (x INTEGER)');
      const count = () => (db.prepare('SELECT COUNT(*) AS n FROM probe').get() as { n: number }).n;
      withWriteTransaction(db, () => {
        db.prepare('INSERT INTO probe VALUES (1)').run();
        // A nested BEGIN IMMEDIATE would throw ("cannot start a transaction within a transaction").
        withWriteTransaction(db, () => db.prepare('INSERT INTO probe VALUES (2)').run());
        assert.equal(
          db.isTransaction,
          true,
          'the inner work must not commit the outer transaction',
        );
      });
      assert.equal(count(), 2);
      assert.throws(
        () =>
          withWriteTransaction(db, () => {
            db.prepare('INSERT INTO probe VALUES (3)').run();
            withWriteTransaction(db, () => {
              db.prepare('INSERT INTO probe VALUES (4)').run();
              throw new Error('inner failure');
            });
          }),
        /inner failure/,
      );
      assert.equal(db.isTransaction, false);
      assert.equal(count(), 2, 'both writes of the failed transaction are rolled back');
    } finally {
      db.close();
    }
  });
});
