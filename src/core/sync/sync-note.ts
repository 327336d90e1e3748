/**
 * What reaches the tracker at a moment that matters: which moments those are (L2/L3, a
 * compaction, a loop restart, a session ending with open work), the comment (what was done, what
 * is open, the next steps, the checkpoint and how to resume), and the key that makes each one
 * idempotent — the comment carries it as a hidden marker, so a retried send finds it posted.
 * Pure.
 * @module
 */
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import { isOpenTaskStatus } from '../checkpoint/checkpoint.ts';
import { formatIssue, type IssueRef } from './issue-ref.ts';

export type SyncMoment = 'L2' | 'L3' | 'compaction' | 'loop_restart' | 'session_end';

export const DEFAULT_SYNC_LABEL = 'context-checkpointed';

/** The moment a checkpoint stands for, or null when it is not one to report. */
export function syncMomentOf(checkpoint: Checkpoint): SyncMoment | null {
  const level = checkpoint.source.level;
  switch (checkpoint.triggeredBy) {
    case 'danger_zone':
      return level === 'L3' ? 'L3' : level === 'L2' ? 'L2' : null;
    case 'pre_compact':
      return 'compaction';
    case 'loop_restart':
      return 'loop_restart';
    case 'session_end':
      return checkpoint.taskState.items.some((t) => isOpenTaskStatus(t.status))
        ? 'session_end'
        : null;
    default:
      return null;
  }
}

/**
 * One report per moment: a session's L2 once, its L3 once, each compaction and loop restart
 * (by its checkpoint), its end once.
 */
export function syncKey(issue: IssueRef, moment: SyncMoment, checkpoint: Checkpoint): string {
  const which =
    moment === 'compaction' || moment === 'loop_restart' ? checkpoint.id : checkpoint.sessionId;
  return `${issue.tracker}:${issue.repo ?? ''}:${issue.key}:${moment}:${which}`;
}

/** The hidden line a comment carries: found again, it proves the comment was posted. */
export function syncMarker(key: string): string {
  return `<!-- shim-sync ${key.replace(/--/g, '- -')} -->`;
}

const HEADLINE: Record<SyncMoment, (c: Checkpoint) => string> = {
  L2: (c) => `context at L2 (${percent(c)} of the auto-compact threshold)`,
  L3: (c) => `context at L3 (${percent(c)} of the auto-compact threshold)`,
  compaction: () => 'Claude Code is compacting the conversation',
  loop_restart: () => 'shim loop restarted the agent in a fresh session',
  session_end: () => 'the session ended with work still open',
};

function percent(c: Checkpoint): string {
  const { contextTokens, compactThreshold } = c.source;
  return compactThreshold > 0 ? `${Math.round((contextTokens / compactThreshold) * 100)}%` : '?';
}

const bullets = (items: readonly string[], max: number) =>
  [
    ...items.slice(0, max).map((i) => `- ${i.replace(/\s+/g, ' ').slice(0, 200)}`),
    ...(items.length > max ? [`- … and ${items.length - max} more`] : []),
  ].join('\n');

/** The comment: short, factual, and enough to pick the work up from the issue alone. */
export function renderSyncComment(request: {
  issue: IssueRef;
  moment: SyncMoment;
  checkpoint: Checkpoint;
  key: string;
  handoffPath?: string | null;
}): string {
  const { checkpoint: c } = request;
  const tasks = c.taskState.items;
  const done = tasks.filter((t) => t.status === 'completed').map((t) => t.content);
  const open = tasks
    .filter((t) => isOpenTaskStatus(t.status))
    .map((t) => `${t.content}${t.status === 'in_progress' ? ' (in progress)' : ''}`);
  const files = c.fileState.modifiedFiles;
  const shortId = c.id.slice(0, 8);
  const where = [
    `session \`${c.sessionId.slice(0, 8)}\``,
    c.createdAt.replace('T', ' ').slice(0, 16) + ' UTC',
    c.fileState.branch ? `branch \`${c.fileState.branch}\`` : null,
  ].filter(Boolean);
  const sections = [
    `### shim checkpoint #${c.checkpointNumber}: ${HEADLINE[request.moment](c)}`,
    `${formatIssue(request.issue)} · ${where.join(' · ')}`,
    done.length > 0 || c.taskState.completedSteps.length > 0
      ? `**Done**\n${bullets(done.length > 0 ? done : c.taskState.completedSteps, 10)}`
      : null,
    open.length > 0 ? `**Open**\n${bullets(open, 15)}` : null,
    c.taskState.nextSteps.length > 0
      ? `**Next steps**\n${bullets(c.taskState.nextSteps, 5)}`
      : null,
    files.length > 0
      ? `**Changed files** (${files.length}): ${files
          .slice(0, 10)
          .map((f) => `\`${f}\``)
          .join(', ')}${files.length > 10 ? ', …' : ''}`
      : null,
    `To continue: start Claude Code in the project (shim restores checkpoint \`${shortId}\` by itself), or \`shim show ${shortId}\` / \`shim resume --print\`.` +
      (request.handoffPath ? ` Handoff (local): \`${request.handoffPath}\`.` : ''),
    syncMarker(request.key),
  ];
  return sections.filter((s): s is string => s !== null).join('\n\n');
}

/** The moments claude-mem keeps an observation of (MEM-001): the context running out. */
export const MEMORY_MOMENTS: readonly SyncMoment[] = ['L2', 'L3', 'compaction'];

/**
 * The observation for claude-mem: a predictable title ("Context Checkpoint L2 at 87% — ANV-123")
 * and the same facts as the issue comment, tagged with the `checkpoint` concept.
 */
export function renderMemoryObservation(request: {
  moment: SyncMoment;
  checkpoint: Checkpoint;
  issue: IssueRef | null;
}): { title: string; text: string; metadata: Record<string, unknown> } {
  const c = request.checkpoint;
  const level =
    request.moment === 'compaction' ? `at compaction (${c.source.level})` : request.moment;
  const title = `Context Checkpoint ${level} at ${percent(c)}${request.issue ? ` — ${formatIssue(request.issue)}` : ''}`;
  const body = renderSyncComment({
    issue: request.issue ?? { tracker: 'claude-mem', key: c.sessionId.slice(0, 8) },
    moment: request.moment,
    checkpoint: c,
    key: '',
  })
    .split('\n\n')
    .slice(1, -1)
    .join('\n\n');
  return {
    title,
    text: body,
    metadata: {
      source: 'shim',
      concepts: ['checkpoint'],
      checkpointId: c.id,
      sessionId: c.sessionId,
      level: c.source.level,
      moment: request.moment,
      ...(request.issue ? { issue: formatIssue(request.issue) } : {}),
    },
  };
}
