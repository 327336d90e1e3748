/**
 * Which checkpoints a command looks at: those of the current project by default (the git root
 * of the directory and everything below it, else the directory alone), every project with `--all`. `--cwd` names another
 * directory, relative paths resolved from where shim runs.
 * @module
 */
import { resolve } from 'node:path';
import { findProjectRoot } from '../capture/project.ts';
import { isInProject } from '../store/ports/project-scope.ts';

export type Scope = { kind: 'project'; root: string } | { kind: 'all' };

export function resolveScope(options: { all?: boolean; cwd?: string }, cwd: string): Scope {
  if (options.all) return { kind: 'all' };
  return { kind: 'project', root: findProjectRoot(resolve(cwd, options.cwd ?? '.')) };
}

/** "project /home/me/app" or "all projects": said in output so nobody wonders. */
export function describeScope(scope: Scope): string {
  return scope.kind === 'all' ? 'all projects' : `project ${scope.root}`;
}

/** True when a checkpoint taken in `cwd` belongs to the scope. */
export function isInScope(scope: Scope, cwd: string | null): boolean {
  if (scope.kind === 'all') return true;
  return cwd !== null && isInProject(scope.root, cwd);
}
