/**
 * What a checkpoint is built from, the same whether it is stored (create-checkpoint.ts) or only
 * shown (preview-checkpoint.ts): the request, the session's state and config, its line in the
 * store, the assessment and the builder's input.
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Assessment } from '../../core/context/assess.ts';
import { buildCheckpoint, type GitFacts } from '../../core/checkpoint/build-checkpoint.ts';
import {
  CHECKPOINT_SECTIONS,
  standInSection,
  type Checkpoint,
  type CheckpointDraft,
  type CheckpointTrigger,
} from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import { createSessionState, type SessionState } from '../../core/session.ts';
import { truncate } from '../../core/truncate.ts';
import type { GitCapture } from '../../capture/git.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { loadConfig, type ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { appendLog } from '../../store/home/log.ts';
import { assessLiveSession } from '../session/assess-live-session.ts';
import { loadSessionState } from '../session/read-session.ts';
import { withCallsStarted } from '../session/calls-started.ts';
import type { SessionLog } from '../session/session-log.ts';
import type { Store } from '../open-store.ts';

export type CheckpointRequest = {
  /** The session's log and the agent that wrote it (session-log.ts finds them for a command). */
  log: SessionLog;
  /** Build from the transcript's first N lines only (the state as it was then). */
  untilLine?: number;
  cwd: string;
  env: Env;
  home: string;
  now: number;
  trigger: CheckpointTrigger;
  reason?: string | null;
  /** Take a git snapshot of uncommitted work (default true). */
  snapshot?: boolean;
  /** The specified WIP commit (docs/specification.md): also commit all changes to the current branch. Opt-in: it moves the branch. */
  wipCommit?: boolean;
  /** An open store to reuse (a restore, the loop); otherwise one is opened and closed. */
  store?: Store;
  /**
   * The session is dead (a restore is building from its transcript): tool calls without a result
   * were interrupted rather than still running.
   */
  interrupted?: boolean;
  /** Called from a hook: take the cached compaction history at any age (no transcript scan). */
  hotPath?: boolean;
  /**
   * What the caller already read for this event (a hook): the session state, its assessment and
   * the config are used as they are — no second fold, config load or assessment.
   */
  known?: {
    state?: SessionState;
    assessment?: Assessment;
    config?: ShimConfig;
    /**
     * git already being captured for this checkpoint (started before the caller loaded the
     * checkpoint code, so it runs meanwhile): the checkpoint takes its id, the snapshot's name.
     */
    git?: StartedGitCapture;
  };
};

export type StartedGitCapture = {
  checkpointId: string;
  capture: Promise<GitCapture>;
  /** The snapshot was promised to the user (a pending checkpoint): a failed build keeps it. */
  keep?: true;
};

async function readState(request: CheckpointRequest): Promise<SessionState> {
  const { path, agent } = request.log;
  // The state now holds the calls the hooks saw start that the log does not hold yet.
  if (request.untilLine === undefined)
    return withCallsStarted(
      request.known?.state ?? (await loadSessionState(path, request.home, agent)),
      agent,
      request.home,
    ).state;
  const options = { untilLine: request.untilLine };
  return agent.log.isCompressed(path)
    ? agent.log.readCompressed(path, options)
    : agent.log.read(path, null, options).cursor.state;
}

function isDirectory(path: string | null): path is string {
  if (!path) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Project instructions a fresh session should keep honouring: the files the agent reads. */
function readCustomInstructions(root: string | null, names: readonly string[]): string | null {
  if (!root) return null;
  for (const name of names) {
    const path = join(root, name);
    if (!existsSync(path)) continue;
    try {
      return truncate(readFileSync(path, 'utf8'), 2000);
    } catch {
      return null;
    }
  }
  return null;
}

/** A log's file name without its extensions: the session id, for most agents. */
export function logName(path: string): string {
  return basename(path).replace(/\.jsonl?(\.gz|\.zst)?$/, '');
}

/** What the store knows of the session's line: its last checkpoint and what it inherited. */
export function readLineage(store: Store, sessionId: string) {
  const previous = store.checkpoints.getMostRecent(sessionId);
  const resumedFrom = store.sessions.get(sessionId)?.resumedFrom ?? null;
  const ancestor = resumedFrom ? store.checkpoints.getById(resumedFrom.checkpointId) : null;
  return { previous, ancestor };
}

/**
 * The draft, or, when the session's content breaks the builder, a draft of stand-ins (built from
 * an empty session state, the session's own facts kept) so that a checkpoint is still stored
 * and says it is partial.
 */
function buildOrStandIn(
  input: Parameters<typeof buildCheckpoint>[0],
  home: string,
): CheckpointDraft {
  try {
    return buildCheckpoint(input);
  } catch (error) {
    appendLog(home, 'error', 'checkpoint builder failed; storing stand-ins', {
      sessionId: input.sessionId,
      error: String(error),
    });
    const empty = buildCheckpoint({
      ...input,
      state: createSessionState(input.state.agent),
      ancestor: null,
    });
    const draft = { ...empty };
    for (const section of CHECKPOINT_SECTIONS)
      draft[section] = standInSection(empty, section) as never;
    return { ...draft, source: { ...draft.source, partial: [...CHECKPOINT_SECTIONS] } };
  }
}

/**
 * The log named holds no conversation: the input is refused. No session's checkpoint was lost,
 * so no failure is recorded for doctor and the statusline (the command that named it says why).
 */
export class NoConversationError extends AppError {}

/** The session's state (the request's own, or read from its log) and its config. */
export async function readCheckpointBasis(
  request: CheckpointRequest,
): Promise<{ state: SessionState; config: ShimConfig }> {
  const { path, agent } = request.log;
  const state = await readState(request);
  if (state.sessionId === null && state.turns === 0 && state.promptCount === 0) {
    throw new NoConversationError(
      'TRANSCRIPT_UNREADABLE',
      `${path} has no ${agent.name} conversation${request.untilLine !== undefined ? ` in its first ${request.untilLine} lines` : ''} to checkpoint`,
      'pass a session transcript with at least one prompt or response',
    );
  }
  // A checkpoint must not fail over a config file: a bad one leaves the defaults.
  const config =
    request.known?.config ??
    (await loadConfig(request.home, {
      lenient: true,
      projectRoot: state.cwd ? findProjectRoot(state.cwd) : null,
    }));
  return { state, config };
}

/**
 * The session's assessment for its checkpoint. The count the risk model weighs is since the last
 * stored checkpoint, not since the start (a hook's own assessment counts from its memory of the
 * last checkpoint: the same slot).
 */
export function assessForCheckpoint(
  request: CheckpointRequest,
  state: SessionState,
  config: ShimConfig,
  previous: Checkpoint | null,
): Assessment {
  return (
    request.known?.assessment ??
    assessLiveSession(request.log.agent, state, {
      home: request.home,
      env: request.env,
      now: request.untilLine !== undefined ? (state.lastActivityAt ?? request.now) : request.now,
      config,
      ...(request.hotPath ? { hotPath: true } : {}),
      toolCallsAtCheckpoint: previous?.signals.toolCallCount ?? null,
    })
  );
}

/** The session's own directory when it exists here; a transcript from elsewhere has no tree. */
export function workTreeOf(request: CheckpointRequest, state: SessionState): string | null {
  return state.cwd === null ? request.cwd : isDirectory(state.cwd) ? state.cwd : null;
}

/** What the builder needs once git has been read. */
export type DraftParts = {
  request: CheckpointRequest;
  state: SessionState;
  id: string;
  git: GitFacts | null;
  workTree: string | null;
  previous: Checkpoint | null;
  ancestor: Checkpoint | null;
  assessment: Assessment;
};

/** The builder's draft of the checkpoint (stand-ins where the session's content breaks it). */
export function draftCheckpoint(parts: DraftParts): CheckpointDraft {
  const { request, state, git, previous, ancestor } = parts;
  const { path, agent } = request.log;
  return buildOrStandIn(
    {
      id: parts.id,
      sessionId: state.sessionId ?? logName(path),
      createdAt: new Date(request.now).toISOString(),
      trigger: request.trigger,
      reason: request.reason ?? null,
      state,
      agent,
      assessment: parts.assessment,
      git,
      transcriptPath: path,
      customInstructions: readCustomInstructions(
        git?.repoRoot ?? parts.workTree,
        agent.instructions.names,
      ),
      interrupted: request.interrupted === true,
      parentId: previous?.id ?? ancestor?.id ?? null,
      ancestor,
    },
    request.home,
  );
}
