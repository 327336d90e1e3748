/**
 * Taking a checkpoint: read the session, assess it, capture git (a snapshot under a hidden
 * ref, never touching the user's branch, index or tree), build, redact, limit, validate, store.
 * One use case for the CLI, the hooks and the MCP server.
 * @module
 */
import { randomUUID } from 'node:crypto';
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
import { getGrowthSteps } from '../../core/context/forecast.ts';
import { createSessionState, getLiveResponses, type SessionState } from '../../core/session.ts';
import { truncate } from '../../core/truncate.ts';
import { captureGitState, type GitCapture } from '../../capture/git.ts';
import { deleteSnapshot } from '../../capture/git-snapshots.ts';
import { commitWip } from '../../capture/wip-commit.ts';
import { findProjectRoot } from '../../capture/project.ts';
import type { CheckpointSize } from '../../store/checkpoints/checkpoint-repository.ts';
import type { ChainSettings } from '../../store/checkpoints/checkpoint-chain.ts';
import { loadConfig, type ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { recordGrowthSteps } from '../../store/estimates/growth-profile.ts';
import {
  clearCheckpointFailure,
  recordCheckpointFailure,
} from '../../store/cache/checkpoint-failures.ts';
import { appendLog } from '../../store/home/log.ts';
import { SecretMemory } from '../../redact/redact.ts';
import { queueTrackerSync } from '../sync/enqueue-sync.ts';
import { replicateSoon } from '../team/replicate-soon.ts';
import { assessLiveSession } from '../session/assess-live-session.ts';
import { sealCheckpoint } from './seal-checkpoint.ts';
import { loadSessionState } from '../session/read-session.ts';
import type { SessionLog } from '../session/session-log.ts';
import { withStore, type Store } from '../open-store.ts';
import { keepSessionMemory } from '../session/read-session.ts';
import { redactStoredSession } from './redact-stored-session.ts';

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

export type CheckpointResult = {
  checkpoint: Checkpoint;
  size: CheckpointSize;
  assessment: Assessment;
  redactions: number;
  /** The WIP commit made on the user's branch, when asked for. */
  wipCommit: string | null;
  durationMs: number;
};

async function readState(request: CheckpointRequest): Promise<SessionState> {
  const { path, agent } = request.log;
  if (request.known?.state && request.untilLine === undefined) return request.known.state;
  if (request.untilLine === undefined) return loadSessionState(path, request.home, agent);
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

/**
 * Takes a checkpoint. A failure is recorded for the statusline, `status`, `doctor` and `stats`
 * (store/cache/checkpoint-failures.ts) and rethrown; a stored one clears the session's record.
 */
export async function createCheckpoint(request: CheckpointRequest): Promise<CheckpointResult> {
  try {
    const result = await takeCheckpoint(request).catch(async (error: unknown) => {
      await dropStartedSnapshot(request.known?.git);
      throw error;
    });
    clearCheckpointFailure(request.home, result.checkpoint.sessionId);
    return result;
  } catch (error) {
    recordCheckpointFailure(request.home, {
      sessionId: failedSessionId(request),
      at: new Date(request.now).toISOString(),
      trigger: request.trigger,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

/** A snapshot started for a checkpoint that was never stored: nothing may point at it. */
async function dropStartedSnapshot(started: StartedGitCapture | undefined): Promise<void> {
  if (started?.keep) return;
  const git = await started?.capture.catch(() => null);
  if (git?.snapshot && git.repoRoot) deleteSnapshot(git.repoRoot, started!.checkpointId);
}

/** The session a failed request was about, as well as it can be told without its state. */
function failedSessionId(request: CheckpointRequest): string {
  return request.known?.state?.sessionId ?? logName(request.log.path);
}

/** A log's file name without its extensions: the session id, for most agents. */
function logName(path: string): string {
  return basename(path).replace(/\.jsonl?(\.gz|\.zst)?$/, '');
}

async function takeCheckpoint(request: CheckpointRequest): Promise<CheckpointResult> {
  const started = performance.now();
  const { path, agent } = request.log;
  const state = await readState(request);
  if (state.sessionId === null && state.turns === 0 && state.promptCount === 0) {
    throw new AppError(
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
  if (request.store) return buildAndStore(request, path, state, config, request.store, started);
  // Another process rebuilt the store meanwhile (nothing was written), or a damaged page or row
  // was met (the store is rebuilt from what is readable): withStore takes the checkpoint again.
  return withStore(request.home, (store) =>
    buildAndStore(request, path, state, config, store, started),
  );
}

/** What the store knows of the session's line: its last checkpoint and what it inherited. */
function readLineage(store: Store, sessionId: string) {
  const previous = store.checkpoints.getMostRecent(sessionId);
  const resumedFrom = store.sessions.get(sessionId)?.resumedFrom ?? null;
  const ancestor = resumedFrom ? store.checkpoints.getById(resumedFrom.checkpointId) : null;
  return { previous, ancestor };
}

async function buildAndStore(
  request: CheckpointRequest,
  path: string,
  state: SessionState,
  config: ShimConfig,
  store: Store,
  started: number,
): Promise<CheckpointResult> {
  const sessionId = state.sessionId ?? logName(path);
  const { previous, ancestor } = readLineage(store, sessionId);
  // The count the risk model weighs is since the last stored checkpoint, not since the start
  // (a hook's own assessment counts from its memory of the last checkpoint: the same slot).
  const assessment =
    request.known?.assessment ??
    assessLiveSession(request.log.agent, state, {
      home: request.home,
      env: request.env,
      now: request.untilLine !== undefined ? (state.lastActivityAt ?? request.now) : request.now,
      config,
      ...(request.hotPath ? { hotPath: true } : {}),
      toolCallsAtCheckpoint: previous?.signals.toolCallCount ?? null,
    });
  rememberGrowth(request.home, sessionId, state, request.now);
  const pending = request.known?.git;
  const id = pending?.checkpointId ?? randomUUID();
  // The session's own directory when it exists here; a transcript from elsewhere has no tree.
  const workTree = state.cwd === null ? request.cwd : isDirectory(state.cwd) ? state.cwd : null;
  const git: GitFacts | null = pending
    ? await pending.capture
    : workTree
      ? await captureGitState(
          workTree,
          request.snapshot === false ? {} : { snapshot: { checkpointId: id } },
        )
      : null;
  try {
    const result = await finishCheckpoint({
      request,
      path,
      state,
      store,
      started,
      id,
      git,
      workTree,
      previous,
      ancestor,
      assessment,
      sync: config.sync,
      chain: {
        incremental: config.checkpoints.continuous,
        fullEvery: config.checkpoints.fullEvery,
      },
    });
    // The team store gets it from the background worker (nothing waits on the network here).
    await replicateSoon({ config, env: request.env, home: request.home, cwd: workTree });
    return result;
  } catch (error) {
    // The snapshot belongs to a checkpoint that was never stored: nothing may point at it.
    if (!pending && git?.snapshot && git.repoRoot) deleteSnapshot(git.repoRoot, id);
    throw error;
  }
}

/** The window's growth joins the user's profile for other sessions' forecasts (best effort). */
function rememberGrowth(home: string, sessionId: string, state: SessionState, now: number): void {
  try {
    recordGrowthSteps(
      home,
      { sessionId, compactions: state.compactions.length },
      getGrowthSteps(getLiveResponses(state)),
      now,
    );
  } catch (error) {
    appendLog(home, 'warn', 'could not record the growth profile', { error: String(error) });
  }
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
    const empty = buildCheckpoint({ ...input, state: createSessionState(), ancestor: null });
    const draft = { ...empty };
    for (const section of CHECKPOINT_SECTIONS)
      draft[section] = standInSection(empty, section) as never;
    return { ...draft, source: { ...draft.source, partial: [...CHECKPOINT_SECTIONS] } };
  }
}

/**
 * The session learned a secret since its rows were last gone through (in this checkpoint, or in
 * the hooks since): its earlier checkpoints, summaries and handoffs are redacted again with it,
 * and the memory is kept with the cached state. A failure is logged: the checkpoint stands.
 */
function forgetLearnedSecrets(captured: Captured, sessionId: string, memory: SecretMemory): void {
  const { request, path, state, store } = captured;
  try {
    redactStoredSession(store, sessionId, memory);
    keepSessionMemory(request.home, path, state, memory);
  } catch (error) {
    appendLog(request.home, 'error', 'could not redact the stored session again', {
      sessionId,
      error: String(error),
    });
  }
}

/** What is known once git has been captured: the rest of building and storing. */
type Captured = {
  request: CheckpointRequest;
  path: string;
  state: SessionState;
  store: Store;
  started: number;
  id: string;
  git: GitFacts | null;
  workTree: string | null;
  previous: Checkpoint | null;
  ancestor: Checkpoint | null;
  assessment: Assessment;
  sync: ShimConfig['sync'];
  /** How it is stored: as what changed since `previous` (store/checkpoints/checkpoint-chain.ts). */
  chain: ChainSettings;
};

async function finishCheckpoint(captured: Captured): Promise<CheckpointResult> {
  const { request, path, state, store, started, id, git, workTree } = captured;
  const { previous, ancestor, assessment } = captured;
  const sessionId = state.sessionId ?? logName(path);
  const wipCommit =
    request.wipCommit && git?.repoRoot
      ? commitWip(
          git.repoRoot,
          `WIP: shim checkpoint ${id.slice(0, 8)}${request.reason ? ` (${request.reason})` : ''}`,
        )
      : null;
  const input: Parameters<typeof buildCheckpoint>[0] = {
    id,
    sessionId,
    createdAt: new Date(request.now).toISOString(),
    trigger: request.trigger,
    reason: request.reason ?? null,
    state,
    agent: request.log.agent,
    assessment,
    git,
    transcriptPath: path,
    customInstructions: readCustomInstructions(
      git?.repoRoot ?? workTree,
      request.log.agent.instructions.names,
    ),
    interrupted: request.interrupted === true,
    parentId: previous?.id ?? ancestor?.id ?? null,
    ancestor,
  };
  const draft = buildOrStandIn(input, request.home);
  // The session's memory of its secrets: what it found anywhere is replaced here too.
  const memory = SecretMemory.from(state.secretMemory);
  const sealed = await sealCheckpoint(draft, memory);
  const limited = sealed.checkpoint;
  if (sealed.partial.length > 0) {
    appendLog(request.home, 'warn', 'checkpoint stored in part', {
      sessionId,
      parts: sealed.partial.map((p) => `${p.section}: ${truncate(p.reason, 200)}`),
    });
  }
  // The checkpoint, its signal sample, the outcome of restores into the session and the
  // session's sighting: one commit (store/checkpoints/checkpoint-writer.ts).
  const stored = store.checkpointWriter.write(
    limited,
    {
      session: {
        transcriptPath: path,
        cwd: state.cwd,
        cliVersion: state.cliVersion,
        model: state.model,
      },
      // A dead session's checkpoint must not make it look recently active: its last activity
      // counts.
      activeAt:
        request.interrupted && state.lastActivityAt !== null
          ? new Date(Math.min(state.lastActivityAt, request.now)).toISOString()
          : limited.createdAt,
    },
    { base: previous, settings: captured.chain },
  );
  if (memory.size > (state.secretMemoryStored ?? 0))
    forgetLearnedSecrets(captured, sessionId, memory);
  // The issue the session works on hears of it at the moments that matter (queued; sent later).
  await queueTrackerSync({
    store,
    checkpoint: stored.checkpoint,
    config: captured.sync,
    home: request.home,
    env: request.env,
  });
  return {
    checkpoint: stored.checkpoint,
    size: stored.size,
    assessment,
    redactions: sealed.findings,
    wipCommit,
    durationMs: performance.now() - started,
  };
}
