/**
 * A whole store as data, to compare before and after a command: every row of every table and
 * every file under SHIM_HOME (tests of `shim forget` and `shim import`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';

/** Every row of every table (FTS content by rowid), as sorted JSON lines per table. */
export function dumpStore(home: string): Map<string, string[]> {
  const db = new DatabaseSync(join(home, 'shim.db'), { readOnly: true });
  try {
    const tables = (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'checkpoint_search_%'",
        )
        .all() as Array<{ name: string }>
    ).map((t) => t.name);
    const dump = new Map<string, string[]>();
    for (const table of tables) {
      const rows = db
        .prepare(`SELECT ${table === 'checkpoint_search' ? 'rowid, ' : ''}* FROM "${table}"`)
        .all();
      dump.set(table, rows.map((r) => JSON.stringify(r)).sort());
    }
    return dump;
  } finally {
    db.close();
  }
}

/**
 * Files under SHIM_HOME with their contents, except the database, the log, and the note of the
 * database file's last clean state (rewritten whenever the database is written).
 */
export function dumpFiles(home: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const rel = relative(home, path);
      // V8's code caches (cache/v8/) are compiled code any command may write, not session data;
      // their bytes hold the bundles' literal strings (a help text's example session id).
      if (/^shim\.db|^logs|^cache\/store-clean\.json$|^cache\/v8(?:\/|$)/.test(rel)) continue;
      const stat = statSync(path, { throwIfNoEntry: false });
      // run/ holds the warm look's named pipes (nothing at rest; it may be leaving meanwhile).
      if (!stat || rel === 'run') continue;
      if (stat.isDirectory()) walk(path);
      // The warm look's named pipes (run/) are not files: reading one would wait for a writer.
      else if (stat.isFile()) files.set(rel, readFileSync(path, 'utf8'));
    }
  };
  walk(home);
  return files;
}
