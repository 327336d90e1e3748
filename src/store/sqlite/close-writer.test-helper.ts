/**
 * The writer of database.test.ts's clean-close test (started compiled:
 * test/helpers/script-process.ts): `<SHIM_HOME>`. Writes, keeps a statement alive past close()
 * and exits: the driver then finishes the close at exit, after the close was recorded.
 */
import { openDatabase } from './database.ts';

const db = openDatabase(process.argv[2]!);
db.exec('CREATE TABLE IF NOT EXISTS probe (x INTEGER)');
const insert = db.prepare('INSERT INTO probe VALUES (?)');
for (let i = 0; i < 50; i++) insert.run(i);
db.close();
(globalThis as { kept?: unknown }).kept = insert;
