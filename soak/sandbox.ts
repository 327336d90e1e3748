/**
 * Where a soak runs: a scratch root holding a fake HOME (so nothing touches the real ~/.claude),
 * SHIM_HOMEs, real transcripts copied from the fixtures, and a watched directory next to each
 * SHIM_HOME that shim must never write into.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type DatabaseSyncInstance } from '@photostructure/sqlite';
import { fixturePath, makeTempDir } from '../test/helpers/fixtures.ts';

export const ROOT = join(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin', 'shim.cjs');

export type Sandbox = {
  root: string;
  /** HOME and CLAUDE_CONFIG_DIR of every child. */
  home: string;
  /** Real transcripts (uncompressed copies of the fixtures). */
  transcripts: string[];
  /** The session id each transcript records. */
  sessionOf: Map<string, string>;
  /** A git repository to run commands in. */
  project: string;
  /** Directory that nothing may appear in (traversal ids aim at it). */
  outside: string;
  envFor(shimHome: string): NodeJS.ProcessEnv;
  newShimHome(name: string): string;
};

const TRANSCRIPTS = [
  'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl.gz',
  'entire-d599f72ee73a-microcompact-todowrite-v2.1.12.jsonl.gz',
  'spotter-short-v2.1.38.jsonl.gz',
  'entire-ed51f6581660-auto-compact-v2.1.42.jsonl.gz',
];

export function makeSandbox(): Sandbox {
  const root = makeTempDir('shim-soak-');
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  const project = join(root, 'project');
  for (const dir of [home, outside, project, join(home, '.claude'), join(root, 'transcripts')])
    mkdirSync(dir, { recursive: true });
  const transcripts = TRANSCRIPTS.map((name) => {
    const path = join(root, 'transcripts', name.replace(/\.gz$/, ''));
    copyFileSync(fixturePath(name.replace(/\.gz$/, '')), path);
    return path;
  });
  const sessionOf = new Map(
    transcripts.map((path) => {
      const match = /"sessionId":"([^"]+)"/.exec(readFileSync(path, 'utf8').slice(0, 65536));
      return [path, match?.[1] ?? 'soak-session'];
    }),
  );
  writeFileSync(join(project, 'README.md'), '# soak project\n');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: project,
      stdio: 'ignore',
      env: { ...process.env, HOME: home },
    });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=soak@example.com', '-c', 'user.name=soak', 'add', '.');
  git('-c', 'user.email=soak@example.com', '-c', 'user.name=soak', 'commit', '-qm', 'start');
  writeFileSync(join(project, 'work.txt'), 'uncommitted work\n');

  const envFor = (shimHome: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      SHIM_HOME: shimHome,
      NO_COLOR: '1',
    };
    // It costs every Node start 40-90 ms on these machines; users rarely have it.
    delete env.NODE_EXTRA_CA_CERTS;
    return env;
  };
  const newShimHome = (name: string) => join(root, 'homes', name, 'shim');
  return { root, home, transcripts, sessionOf, project, outside, envFor, newShimHome };
}

/** `PRAGMA integrity_check` of a store, or why it could not be read. */
export function integrityOf(shimHome: string): string {
  if (!existsSync(join(shimHome, 'shim.db'))) return 'absent';
  let db: DatabaseSyncInstance | undefined;
  try {
    db = new DatabaseSync(join(shimHome, 'shim.db'));
    db.exec('PRAGMA busy_timeout = 10000');
    const row = db.prepare('PRAGMA integrity_check').get() as { integrity_check: string };
    return row.integrity_check;
  } catch (error) {
    return `unreadable: ${(error as Error).message}`;
  } finally {
    db?.close();
  }
}

/** Which of `ids` the store holds. */
/** The ids (or 8-character prefixes, as a risky command's hook prints them) that are stored. */
export function storedIds(shimHome: string, ids: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (ids.length === 0 || !existsSync(join(shimHome, 'shim.db'))) return found;
  const db = new DatabaseSync(join(shimHome, 'shim.db'));
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    const query = db.prepare('SELECT id FROM checkpoints WHERE id = ?');
    const byPrefix = db.prepare('SELECT id FROM checkpoints WHERE substr(id, 1, 8) = ?');
    for (const id of ids) if ((id.length === 8 ? byPrefix : query).get(id)) found.add(id);
  } finally {
    db.close();
  }
  return found;
}

export function checkpointCount(shimHome: string): number {
  const db = new DatabaseSync(join(shimHome, 'shim.db'));
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    return (db.prepare('SELECT COUNT(*) AS n FROM checkpoints').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Entries that appeared in the watched directory (should be none). */
export function escapedFiles(sandbox: Sandbox): string[] {
  return readdirSync(sandbox.outside, { recursive: true }).map(String);
}

/**
 * Has a shim command finish the checkpoints hooks promised (it waits for builders at work and
 * builds what a killed one left), as the next command a user runs would.
 */
export function finishPromised(sandbox: Sandbox, shimHome: string): void {
  spawnSync(process.execPath, [BIN, 'list', '--all', '--json'], {
    env: sandbox.envFor(shimHome),
    cwd: sandbox.project,
    stdio: 'ignore',
    timeout: 60_000,
  });
}
