/**
 * The team's newest unfinished work in a project, from the local copy the pull made (no
 * connection here), when nothing in this machine's store for the project is newer: its checkpoint
 * rebased onto this clone (not stored), and the detection that names where it comes from. The
 * startup restore takes it once (app/restore/startup-restore.ts); `shim resume` shows it.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { formatDuration, type ResumeDetection } from '../../core/resume/resume.ts';
import { rebaseCheckpoint } from '../../core/team/rebase-checkpoint.ts';
import { identifyProject } from '../../capture/project-remote.ts';
import type { TeamWork } from '../../store/ports/team-work.ts';
import type { Env } from '../../store/home/home.ts';
import type { Store } from '../open-store.ts';

const TEAM_REASONS: Record<TeamWork['reason'], string> = {
  interrupted: 'its session stopped with work open',
  handoff: 'they handed it to the team (shim handoff --team)',
  usage_limit: 'its session stopped at a usage limit',
};

export type NewerTeamWork = { work: TeamWork; checkpoint: Checkpoint; detection: ResumeDetection };

export function newerTeamWork(
  store: Pick<Store, 'teamWork' | 'checkpoints'>,
  root: string,
  request: {
    cwd: string;
    env: Env;
    now: number;
    resumeWindowDays?: number;
    /** The session starting now (its own checkpoints do not count as newer). */
    sessionId?: string;
  },
): NewerTeamWork | null {
  const work = store.teamWork.getUntaken(identifyProject(request.cwd, request.env).id);
  if (work === null) return null;
  const windowMs = (request.resumeWindowDays ?? 7) * 86_400_000;
  if (Date.parse(work.createdAt) < request.now - windowMs) return null;
  const local = store.checkpoints.getMostRecentInProject(
    root,
    request.sessionId ? { excludeSession: request.sessionId } : {},
  );
  if (local !== null && local.createdAt >= work.createdAt) return null;
  // Its paths are the other clone's: this clone's from here on.
  const checkpoint =
    store.checkpoints.getById(work.checkpoint.id) ?? rebaseCheckpoint(work.checkpoint, root);
  const age = Math.max(0, request.now - Date.parse(work.createdAt));
  return {
    work,
    checkpoint,
    detection: {
      shouldResume: true,
      lastCheckpointId: checkpoint.id,
      interruptionReason: work.reason === 'handoff' ? 'handoff' : 'unknown',
      timeSinceInterruption: age,
      confidence: work.reason === 'handoff' ? 0.95 : 0.7,
      explanation: `The newest work in this project is ${work.osUser}'s on ${work.machine}, ${formatDuration(age)} ago, and ${TEAM_REASONS[work.reason]}; nothing newer is in this machine's store.`,
      from: { osUser: work.osUser, machine: work.machine },
    },
  };
}
