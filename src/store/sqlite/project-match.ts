/**
 * SQL for "rows of a project". A project is the top of a git work tree — then everything below
 * it belongs to it (Claude Code may run in a subdirectory) — or, outside git, one directory.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Escapes LIKE's wildcards (`%`, `_`) and the escape character itself. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

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

/** A WHERE fragment and its parameters matching `column` inside the project at `root`. */
export function matchProject(column: string, root: string): { sql: string; params: string[] } {
  const top = root.length > 1 ? root.replace(/\/+$/, '') : root;
  if (!includesSubdirectories(top)) return { sql: `${column} = ?`, params: [top] };
  if (top === '/') return { sql: `${column} IS NOT NULL`, params: [] };
  return {
    sql: `(${column} = ? OR ${column} LIKE ? ESCAPE '\\')`,
    params: [top, `${escapeLike(top)}/%`],
  };
}
