/**
 * At a session's start: if it works on an issue (a link for the project, its branch, the session
 * it continues), the worker is asked to read the issue now — its title and state are then at
 * hand for the handoffs written later in the session, which never ask the tracker themselves.
 * @module
 */
import type { ShimConfig } from '../../store/config/config.ts';
import { currentBranch } from '../../capture/git-run.ts';
import { findProjectRoot } from '../../capture/project.ts';
import type { IssueRef } from '../../core/sync/issue-ref.ts';
import { appendLog } from '../../store/home/log.ts';
import { resolveSessionIssue, startSyncWorker, type SyncQueueStore } from './enqueue-sync.ts';
import { originRepo } from '../origin-repo.ts';

type Env = Readonly<Record<string, string | undefined>>;

export async function watchSessionIssue(request: {
  store: SyncQueueStore;
  sessionId: string;
  cwd: string | null;
  config: ShimConfig['sync'];
  home: string;
  env: Env;
  now: string;
}): Promise<IssueRef | null> {
  if (!request.config.enabled || !request.cwd) return null;
  try {
    const branch = currentBranch(request.cwd);
    const found = resolveSessionIssue(
      request.store,
      {
        sessionId: request.sessionId,
        branch,
        requests: [],
        projectRoot: findProjectRoot(request.cwd),
      },
      request.now,
    );
    if (!found) return null;
    const repo =
      found.ref.tracker === 'github' ? (found.ref.repo ?? originRepo(request.cwd)) : null;
    const issue = repo ? { ...found.ref, repo } : found.ref;
    const added = request.store.outbox.enqueue(
      [
        {
          dedupeKey: `facts:${request.sessionId}`,
          issue,
          action: 'facts',
          payload: {},
          sessionId: request.sessionId,
        },
      ],
      request.now,
    );
    if (added > 0) await startSyncWorker(request.cwd, request.env, request.home);
    return issue;
  } catch (error) {
    appendLog(request.home, 'warn', "could not look up the session's issue", {
      error: String(error),
    });
    return null;
  }
}
