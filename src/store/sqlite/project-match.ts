/**
 * SQL for "rows of a project", a project as the ports mean it (store/ports/project-scope.ts): the
 * top of a git work tree and everything below it, or, outside git, one directory.
 * @module
 */
import { includesSubdirectories } from '../ports/project-scope.ts';

/** Escapes LIKE's wildcards (`%`, `_`) and the escape character itself. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
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
