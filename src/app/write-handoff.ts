/**
 * Writing a handoff document under SHIM_HOME/handoffs/ and recording it, for every writer: the
 * user (`shim handoff`: the next session in the project picks it up once), the PreCompact hook,
 * and the levels (an automatic handoff at L2; at L3 one that keeps everything: every request,
 * the whole task list, every decision, the full diff summary).
 * @module
 */
import { join } from 'node:path';
import type { Checkpoint } from '../core/checkpoint/checkpoint.ts';
import { renderHandoff, type HandoffIssue, type HandoffOptions } from '../core/resume/handoff.ts';
import { formatIssue } from '../core/sync/issue-ref.ts';
import { originRepo } from './origin-repo.ts';
import type { ResumeDetection } from '../core/resume/resume.ts';
import { findProjectRoot } from '../capture/project.ts';
import type { HandoffKind } from '../store/ports/handoffs.ts';
import { safeFileName } from '../core/fnv-hash.ts';
import { ensureDir } from '../store/home/home.ts';
import { writeFileSafely } from '../store/home/safe-file.ts';
import type { Store } from './open-store.ts';
import { writeProjectHandoff, type ProjectFilesSetting } from './project-files.ts';
import { loadConfig } from '../store/config/config.ts';
import { appendLog } from '../store/home/log.ts';

/** L3 keeps everything the checkpoint holds: no budget cut below its own limits. */
const MAX_PRESERVATION_CHARS = 1_000_000;

/** A file name no session id can turn into a path elsewhere, unique per checkpoint. */
export function handoffFileName(checkpoint: Checkpoint): string {
  return `${safeFileName(checkpoint.sessionId)}-${String(checkpoint.checkpointNumber).padStart(3, '0')}.md`;
}

export type WrittenHandoff = { path: string; document: string };

/** The session's issue with what the sync worker last read of it; null when it has none. */
function handoffIssue(store: Store, checkpoint: Checkpoint): HandoffIssue | null {
  const linked = store.issues.get(checkpoint.sessionId);
  if (!linked) return null;
  const cache = store.issueFacts;
  // A GitHub number from the branch names no repository; the worker read it in the project's.
  const repo =
    linked.ref.tracker === 'github' && !linked.ref.repo
      ? originRepo(checkpoint.fileState.repoRoot ?? checkpoint.source.cwd)
      : null;
  const facts = cache.get(linked.ref) ?? (repo ? cache.get({ ...linked.ref, repo }) : null);
  return {
    name: formatIssue(linked.ref),
    title: facts?.title ?? null,
    state: facts?.state ?? null,
    url: facts?.url ?? null,
    lastNote: facts?.lastNote ?? null,
  };
}

/** The project's own copy (opt-in, app/project-files.ts); a failure is logged, not thrown. */
async function copyIntoProject(
  home: string,
  checkpoint: Checkpoint,
  document: string,
  request: { now: number; projectFiles?: ProjectFilesSetting },
): Promise<void> {
  try {
    const cwd = checkpoint.source.cwd;
    const setting =
      request.projectFiles ??
      (await loadConfig(home, { lenient: true, projectRoot: cwd ? findProjectRoot(cwd) : null }))
        .projectFiles;
    writeProjectHandoff({ setting, checkpoint, document, now: request.now });
  } catch (error) {
    appendLog(home, 'warn', 'could not copy the handoff into the project', {
      sessionId: checkpoint.sessionId,
      error: String(error),
    });
  }
}

export async function writeHandoff(
  store: Store,
  home: string,
  request: {
    checkpoint: Checkpoint;
    kind: HandoffKind;
    detection: ResumeDetection | null;
    now: number;
    /** A line put above the document (a usage-limit handoff names the limit there). */
    preface?: string;
    /** The project-files setting when the caller has the config; otherwise it is read here. */
    projectFiles?: ProjectFilesSetting;
  },
): Promise<WrittenHandoff> {
  const { checkpoint, kind } = request;
  const options: HandoffOptions = kind === 'level_L3' ? { maxChars: MAX_PRESERVATION_CHARS } : {};
  options.issue = handoffIssue(store, checkpoint);
  const rendered = renderHandoff(checkpoint, request.detection, options);
  const document = request.preface
    ? `${request.preface}

${rendered}`
    : rendered;
  const path = join(ensureDir(home, 'handoffs'), handoffFileName(checkpoint));
  writeFileSafely(path, `${document}\n`);
  const cwd = checkpoint.source.cwd;
  store.handoffs.record({
    checkpointId: checkpoint.id,
    sessionId: checkpoint.sessionId,
    project: cwd ? findProjectRoot(cwd) : null,
    path,
    kind,
    createdAt: new Date(request.now).toISOString(),
  });
  await copyIntoProject(home, checkpoint, document, request);
  return { path, document };
}
