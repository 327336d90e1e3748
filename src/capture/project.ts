/**
 * Which project a directory belongs to: the top of its git work tree, else the directory
 * itself. Found by looking for `.git` upwards (a directory, or a file in a worktree or
 * submodule) — no git process, so hooks can afford it.
 * @module
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function findProjectRoot(cwd: string): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}
