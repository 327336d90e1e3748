/**
 * Where a work tree's own ignore list is (`git rev-parse --git-path info/exclude`), read from the
 * files git reads instead of a git process per checkpoint: `<root>/.git/info/exclude` in a plain
 * clone; in a linked work tree (`.git` is a file naming its git dir) the common dir's, whose path
 * that git dir's `commondir` file holds. git asks the same files (gitrepository-layout(5)); git
 * itself is asked only when `.git` is neither. No `.git` in the root: not a work tree's root.
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gitLine } from './git-run.ts';

function readTrimmed(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The exclude file of the work tree at `root` (absolute); null outside a git work tree. */
export function gitExcludePath(root: string): string | null {
  const dotGit = join(root, '.git');
  let kind: 'dir' | 'file' | 'other';
  try {
    const stat = statSync(dotGit);
    kind = stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other';
  } catch {
    // A work tree's root holds `.git` (git-run.ts clears GIT_DIR and the like for its calls).
    return null;
  }
  if (kind === 'dir') return join(dotGit, 'info', 'exclude');
  const pointer = kind === 'file' ? /^gitdir:\s*(.+)$/m.exec(readTrimmed(dotGit) ?? '') : null;
  if (pointer) {
    const gitDir = resolve(root, pointer[1]!.trim());
    const common = readTrimmed(join(gitDir, 'commondir'));
    return join(common ? resolve(gitDir, common) : gitDir, 'info', 'exclude');
  }
  const where = gitLine(root, ['rev-parse', '--git-path', 'info/exclude']);
  return where ? resolve(root, where) : null;
}
