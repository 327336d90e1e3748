import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { snapshotRef } from './git.ts';
import { runSnapshotScript } from './snapshot-script.ts';

// No system or user git configuration, no repository above the temp directory.
const base = realpathSync(mkdtempSync(join(tmpdir(), 'shim-snapshot-script-')));
after(() => rmSync(base, { recursive: true, force: true }));
writeFileSync(join(base, 'empty-gitconfig'), '');
process.env.GIT_CONFIG_NOSYSTEM = '1';
process.env.GIT_CONFIG_GLOBAL = join(base, 'empty-gitconfig');
process.env.GIT_CEILING_DIRECTORIES = base;
for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete process.env[name];

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
  }).trim();

/** The whole seconds of a file's change and modification times as the index holds them. */
function indexSeconds(dir: string, path: string): { ctime: number; mtime: number } {
  const debug = git(dir, 'ls-files', '--debug', '--', path);
  const second = (name: string) => Number(new RegExp(`${name}: (\\d+):`).exec(debug)?.[1]);
  return { ctime: second('ctime'), mtime: second('mtime') };
}

// Git trusts a file's stat (size, whole-second times) against its index entry unless the entry
// is "racy": written in the same second as the index file itself or later, judged by the index
// file's own mtime. The script stages into a copy of the index: a copy with a fresh mtime made
// such an entry look settled, so an edit of the same size in the second of the checkout was left
// out of the snapshot (test/team/files-travel failed by it once its test ran fast enough).
test('an edit of the same size made in the second of the checkout is in the snapshot', async () => {
  const origin = join(base, 'origin');
  execFileSync('git', ['init', '-q', origin]);
  writeFileSync(join(origin, 'app.ts'), 'export const answer = 41;\n');
  git(origin, 'add', '.');
  git(origin, 'commit', '-qm', 'base');

  // The edit must land in the checkout's second (its index entry then matches the file's stat);
  // a clone that crossed into the next second is tried again.
  let clone = '';
  let second = 0;
  for (let attempt = 0; attempt < 20 && !clone; attempt++) {
    const dir = join(base, `clone-${attempt}`);
    execFileSync('git', ['clone', '-q', origin, dir]);
    writeFileSync(join(dir, 'app.ts'), 'export const answer = 42;\n');
    const file = statSync(join(dir, 'app.ts'));
    const entry = indexSeconds(dir, 'app.ts');
    const fileSecond = Math.floor(file.mtimeMs / 1000);
    if (entry.mtime === fileSecond && entry.ctime === Math.floor(file.ctimeMs / 1000)) {
      clone = dir;
      second = fileSecond;
    }
  }
  assert.ok(clone, 'no clone and edit within one second in 20 tries');
  // The snapshot is taken in a later second, as a checkpoint would be.
  while (Math.floor(Date.now() / 1000) <= second) await sleep(20);

  const ref = snapshotRef('racy-edit');
  const { snapshot } = await runSnapshotScript(clone, ref, 'racy-edit');
  assert.equal(git(clone, 'show', `${snapshot.commit}:app.ts`), 'export const answer = 42;');
  assert.equal(git(clone, 'show', `${ref}:app.ts`), 'export const answer = 42;');
  // The user's own index is untouched: it still holds the checkout's content.
  assert.equal(git(clone, 'show', ':app.ts'), 'export const answer = 41;');
});
