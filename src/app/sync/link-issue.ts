/**
 * `shim link`: the issue a session works on, said outright — for the directory's latest session
 * and the sessions started in the project after it — or cleared; and which one it is now.
 * @module
 */
import type { IssueRef, IssueSource } from '../../core/sync/issue-ref.ts';
import { withStore } from '../open-store.ts';

/** The key a project-wide link is kept under (sessions started later in it inherit it). */
export const projectKey = (root: string) => `project:${root}`;

export async function linkIssue(request: {
  home: string;
  sessionId: string | null;
  projectRoot: string;
  issue: IssueRef | null;
  now: string;
}): Promise<void> {
  await withStore(request.home, (store) => {
    const issues = store.issues;
    for (const key of [request.sessionId, projectKey(request.projectRoot)]) {
      if (key === null) continue;
      if (request.issue) issues.set(key, request.issue, 'linked', request.now);
      else issues.clear(key, request.now);
    }
  });
}

export async function currentIssue(request: {
  home: string;
  sessionId: string | null;
  projectRoot: string;
}): Promise<{ ref: IssueRef; source: IssueSource; scope: 'session' | 'project' } | null> {
  return withStore(request.home, (store) => {
    const issues = store.issues;
    const own = request.sessionId ? issues.get(request.sessionId) : null;
    if (own) return { ...own, scope: 'session' as const };
    if (request.sessionId && issues.isCleared(request.sessionId)) return null;
    const project = issues.get(projectKey(request.projectRoot));
    return project ? { ...project, scope: 'project' as const } : null;
  });
}
