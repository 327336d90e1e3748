/**
 * At a checkpoint that stands for a moment worth reporting (core/sync/sync-note.ts), the issue
 * the session works on gets its comment, label and state move queued in the outbox — in the
 * checkpoint's own process, a few inserts; the sending is a detached worker's (`shim sync`).
 * The session's issue is remembered (linked, else detected) and passed to the sessions restored
 * from it.
 * @module
 */
import { basename, join } from 'node:path';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { chooseIssue, type IssueRef, type IssueSource } from '../../core/sync/issue-ref.ts';
import {
  MEMORY_MOMENTS,
  renderMemoryObservation,
  renderSyncComment,
  syncKey,
  syncMarker,
  syncMomentOf,
  type SyncMoment,
} from '../../core/sync/sync-note.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import { appendLog } from '../../store/home/log.ts';
import type { OutboxDraft } from '../../store/ports/outbox.ts';
import type { Store } from '../open-store.ts';
import { runShimInBackground } from '../run-in-background.ts';
import { handoffFileName } from '../write-handoff.ts';
import { projectKey } from './link-issue.ts';
import { hasClaudeMem } from './claude-mem-place.ts';
import { originRepo } from '../origin-repo.ts';
import { hasTrackerToken } from './tracker-access.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** What the sync queue reads and writes: each session's issue, the sessions' lineage, the outbox. */
export type SyncQueueStore = Pick<Store, 'issues' | 'sessions' | 'outbox'>;

/** The issue of a session: what was linked or detected before, else what its evidence names. */
export function resolveSessionIssue(
  store: Pick<SyncQueueStore, 'issues' | 'sessions'>,
  evidence: {
    sessionId: string;
    branch: string | null;
    requests: readonly string[];
    goal?: string | null;
    /** The project's root: a link made for the project (`shim link`) applies. */
    projectRoot?: string | null;
    /** config sync.fromRequests: a request's or goal's text may name the issue. */
    fromText?: boolean;
  },
  now: string,
): { ref: IssueRef; source: IssueSource } | null {
  const { issues } = store;
  if (issues.isCleared(evidence.sessionId)) return null;
  const known = issues.get(evidence.sessionId);
  if (known?.source === 'linked') return known;
  if (evidence.projectRoot) {
    const project = projectKey(evidence.projectRoot);
    if (issues.isCleared(project)) return null;
    const linked = issues.get(project);
    if (linked?.source === 'linked') {
      issues.set(evidence.sessionId, linked.ref, 'linked', now);
      return linked;
    }
  }
  const fromText = evidence.fromText === true;
  // Without fromText, what was found in text before (an older shim, or the setting since turned
  // off) is not carried on.
  const usable = <T extends { source: IssueSource }>(found: T | null | undefined): T | null =>
    found && (fromText || (found.source !== 'request' && found.source !== 'goal')) ? found : null;
  const parent = store.sessions.get(evidence.sessionId)?.resumedFrom?.sessionId;
  const inherited = usable(parent ? issues.get(parent) : null)?.ref;
  const chosen = chooseIssue({
    branch: evidence.branch,
    requests: evidence.requests,
    goal: evidence.goal ?? null,
    inherited: inherited ?? usable(known)?.ref ?? null,
    fromText,
  });
  if (chosen && (!known || known.ref.key !== chosen.ref.key || known.source !== chosen.source))
    issues.set(evidence.sessionId, chosen.ref, chosen.source, now);
  return chosen;
}

/** A detached `shim sync --drain` (one runs at a time; it exits once nothing is due). */
export async function startSyncWorker(cwd: string | null, env: Env, home: string): Promise<void> {
  await runShimInBackground(['sync', '--drain'], cwd, env, home);
}

/** A GitHub issue names its repository: its own, else the project's origin. */
function issueWithRepo(ref: IssueRef, checkpoint: Checkpoint): IssueRef {
  if (ref.tracker !== 'github' || ref.repo) return ref;
  const repo = originRepo(checkpoint.fileState.repoRoot ?? checkpoint.source.cwd);
  return repo ? { ...ref, repo } : ref;
}

/** The comment, the label and the state move for the issue, each with its dedupe key. */
function issueDrafts(
  issue: IssueRef,
  moment: SyncMoment,
  checkpoint: Checkpoint,
  config: ShimConfig['sync'],
  handoffPath: string | null,
): OutboxDraft[] {
  const key = syncKey(issue, moment, checkpoint);
  const base = { issue, sessionId: checkpoint.sessionId, checkpointId: checkpoint.id };
  const body = renderSyncComment({ issue, moment, checkpoint, key, handoffPath });
  const drafts: OutboxDraft[] = [
    {
      ...base,
      dedupeKey: `${key}:comment`,
      action: 'comment',
      payload: { body, marker: syncMarker(key) },
    },
  ];
  const where = `${issue.tracker}:${issue.repo ?? ''}:${issue.key}`;
  if (config.label)
    drafts.push({
      ...base,
      dedupeKey: `${where}:label:${config.label}`,
      action: 'label',
      payload: { name: config.label },
    });
  if (config.state)
    drafts.push({
      ...base,
      dedupeKey: `${where}:state:${config.state}`,
      action: 'state',
      payload: { name: config.state },
    });
  return drafts;
}

/** The observation for claude-mem (MEM-001), when it is installed and this moment is one it keeps. */
function memoryDraft(
  moment: SyncMoment,
  checkpoint: Checkpoint,
  issue: IssueRef | null,
  env: Env,
): OutboxDraft | null {
  if (!MEMORY_MOMENTS.includes(moment) || !hasClaudeMem(env)) return null;
  const observation = renderMemoryObservation({ moment, checkpoint, issue });
  return {
    dedupeKey: `claude-mem:${moment}:${moment === 'compaction' ? checkpoint.id : checkpoint.sessionId}`,
    // claude-mem names a project by its folder.
    issue: {
      tracker: 'claude-mem',
      key: basename(checkpoint.fileState.repoRoot ?? checkpoint.source.cwd ?? 'project'),
    },
    action: 'observation',
    payload: {
      title: observation.title,
      text: observation.text,
      metadata: JSON.stringify(observation.metadata),
    },
    sessionId: checkpoint.sessionId,
    checkpointId: checkpoint.id,
  };
}

export async function queueTrackerSync(request: {
  store: SyncQueueStore;
  checkpoint: Checkpoint;
  config: ShimConfig['sync'];
  home: string;
  env: Env;
  handoffPath?: string | null;
}): Promise<number> {
  const { store, checkpoint, config } = request;
  if (!config.enabled) return 0;
  const moment = syncMomentOf(checkpoint);
  if (!moment) return 0;
  try {
    const now = checkpoint.createdAt;
    const found = resolveSessionIssue(
      store,
      {
        sessionId: checkpoint.sessionId,
        branch: checkpoint.fileState.branch,
        requests: checkpoint.conversationState.userRequests,
        projectRoot: checkpoint.fileState.repoRoot ?? checkpoint.source.cwd,
        fromText: config.fromRequests === true,
      },
      now,
    );
    const withRepo = found ? issueWithRepo(found.ref, checkpoint) : null;
    // Queued only for a tracker that can be reached: entries waiting on a token nobody set
    // would post a backlog the day one is (hasTrackerToken reads the environment, or `gh`).
    const issue = withRepo && hasTrackerToken(withRepo.tracker, request.env) ? withRepo : null;
    // L2, L3 and a compaction leave a handoff under this name (write-handoff.ts): the comment
    // points at it, a local path.
    const handoffPath =
      request.handoffPath ??
      (MEMORY_MOMENTS.includes(moment)
        ? join(request.home, 'handoffs', handoffFileName(checkpoint))
        : null);
    const drafts = issue ? issueDrafts(issue, moment, checkpoint, config, handoffPath) : [];
    const memory = config.claudeMem ? memoryDraft(moment, checkpoint, withRepo, request.env) : null;
    if (memory) drafts.push(memory);
    if (drafts.length === 0) return 0;
    const added = store.outbox.enqueue(drafts, now);
    if (added > 0) await startSyncWorker(checkpoint.source.cwd, request.env, request.home);
    return added;
  } catch (error) {
    // Sync is never worth a failed checkpoint.
    appendLog(request.home, 'warn', 'could not queue the tracker sync', { error: String(error) });
    return 0;
  }
}
