/**
 * The password from libpq's password file (`passfile`, PGPASSFILE, else ~/.pgpass), looked up by
 * shim and handed to pg as its `password` function: pg's own lookup prints a deprecation warning
 * on every connection (pg 8.x), this one prints nothing. Lines are read and matched by pg's own
 * `pgpass` package; a file readable by others is ignored, as libpq ignores it, and said so in the
 * hint of an authentication failure instead of on stderr.
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ConnTarget } from './conninfo.ts';

type Entry = { host: string; port: string; database: string; user: string; password: string };
type PgpassHelper = {
  parseLine: (line: string) => Entry | null;
  isValidEntry: (entry: Entry) => boolean;
  match: (
    conn: { host: string; port: number; database: string; user: string },
    entry: Entry,
  ) => boolean;
};

const require = createRequire(import.meta.url);
let helper: PgpassHelper | null = null;
const pgpass = (): PgpassHelper => (helper ??= require('pgpass/lib/helper.js') as PgpassHelper);

export type PasswordLookup = { password: string | null; ignored: string | null };

/** Why a file gave nothing, by file: the hint of an authentication failure says it. */
const ignoredFiles = new Map<string, string>();

export function whyPasswordFileIgnored(file: string): string | null {
  return ignoredFiles.get(file) ?? null;
}

/**
 * The first line of `file` matching the target, database and user (`*` matches anything; a
 * socket connection also matches `localhost`, as libpq's does for its default socket).
 */
export function passwordFromFile(
  file: string,
  target: ConnTarget,
  database: string,
  user: string,
): PasswordLookup {
  const found = lookUp(file, target, database, user);
  if (found.ignored !== null) ignoredFiles.set(file, found.ignored);
  return found;
}

function lookUp(file: string, target: ConnTarget, database: string, user: string): PasswordLookup {
  let mode: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return { password: null, ignored: `${file} is not a plain file` };
    mode = stat.mode;
  } catch {
    return { password: null, ignored: null };
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0)
    return {
      password: null,
      ignored: `${file} is ignored: others may read it (chmod 600 ${file})`,
    };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { password: null, ignored: `${file} cannot be read` };
  }
  const { parseLine, isValidEntry, match } = pgpass();
  const hosts = target.socket ? [target.host, 'localhost'] : [target.host];
  const entries = text
    .split(/\r?\n/)
    .map((line) => parseLine(line))
    .filter((e): e is Entry => e !== null && isValidEntry(e));
  for (const host of hosts) {
    const found = entries.find((e) => match({ host, port: target.port, database, user }, e));
    if (found) return { password: found.password, ignored: null };
  }
  return { password: null, ignored: null };
}
