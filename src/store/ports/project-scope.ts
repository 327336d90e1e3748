/**
 * What a project is to every port that takes one (`root`: the newest checkpoint in a project, a
 * project's pending handoff, its sessions): the top of a git work tree — then everything below it
 * belongs to it (an agent may run in a subdirectory) — or, outside git, one directory. The SQLite
 * side says the same in SQL (store/sqlite/project-match.ts).
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** True when directories below `root` belong to its project: `root` is a git work tree's top. */
export function includesSubdirectories(root: string): boolean {
  return existsSync(join(root, '.git'));
}

/** True when `cwd` belongs to the project at `root`. */
export function isInProject(root: string, cwd: string): boolean {
  const top = root.length > 1 ? root.replace(/\/+$/, '') : root;
  if (cwd === top) return true;
  if (!includesSubdirectories(top)) return false;
  return top === '/' || cwd.startsWith(`${top}/`);
}
