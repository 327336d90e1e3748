/**
 * Taking a checkpoint: read the session, assess it, capture git (a snapshot under a hidden
 * ref, never touching the user's branch, index or tree), build, redact, limit, validate, store.
 * One use case for the CLI, the hooks and the MCP server.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Assessment } from '../../core/context/assess.ts';
import type { GitFacts } from '../../core/checkpoint/build-checkpoint.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { getGrowthSteps } from '../../core/context/forecast.ts';
import { getLiveResponses, type SessionState } from '../../core/session.ts';
import { truncate } from '../../core/truncate.ts';
import { captureGitState } from '../../capture/git.ts';
import { deleteSnapshot } from '../../capture/git-snapshots.ts';
import { commitWip } from '../../capture/wip-commit.ts';
import type { ChainSettings, CheckpointSize } from '../../store/ports/checkpoints.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import { recordGrowthSteps } from '../../store/estimates/growth-profile.ts';
import {
  clearCheckpointFailure,
  recordCheckpointFailure,
} from '../../store/cache/checkpoint-failures.ts';
import { appendLog } from '../../store/home/log.ts';
import { forgetRememberedValue, SecretMemory } from '../../redact/redact.ts';
import { queueTrackerSync } from '../sync/enqueue-sync.ts';
import { replicateSoon } from '../team/replicate-soon.ts';
import { sealCheckpoint } from './seal-checkpoint.ts';
import { withStore, type Store } from '../open-store.ts';
import { keepSessionMemory } from '../session/read-session.ts';
import { redactStoredSession, spreadLearnedSecrets } from './redact-stored-session.ts';
import { runShimInBackground } from '../run-in-background.ts';
import { keepProjectState } from '../project-files.ts';
import {
  assessForCheckpoint,
  draftCheckpoint,
  NoConversationError,
  logName,
  readCheckpointBasis,
  readLineage,
  workTreeOf,
  type CheckpointRequest,
  type DraftParts,
  type StartedGitCapture,
} from './checkpoint-input.ts';

export type { CheckpointRequest, StartedGitCapture } from './checkpoint-input.ts';

export type CheckpointResult = {
  checkpoint: Checkpoint;
  size: CheckpointSize;
  assessment: Assessment;
  redactions: number;
  /** The WIP commit made on the user's branch, when asked for. */
  wipCommit: string | null;
  durationMs: number;
};

/**
 * Takes a checkpoint. A failure is recorded for the statusline, `status`, `doctor` and `stats`
 * (store/cache/checkpoint-failures.ts) and rethrown; a stored one clears the session's record.
 * A log with no conversation in it is refused, not recorded: no session's work was lost.
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
    if (error instanceof NoConversationError) throw error;
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

async function takeCheckpoint(request: CheckpointRequest): Promise<CheckpointResult> {
  const started = performance.now();
  const { path } = request.log;
  const { state, config } = await readCheckpointBasis(request);
  if (request.store) return buildAndStore(request, path, state, config, request.store, started);
  // Another process rebuilt the store meanwhile (nothing was written), or a damaged page or row
  // was met (the store is rebuilt from what is readable): withStore takes the checkpoint again.
  return withStore(request.home, (store) =>
    buildAndStore(request, path, state, config, store, started),
  );
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
  const assessment = assessForCheckpoint(request, state, config, previous);
  rememberGrowth(request.home, sessionId, state, request.now);
  const pending = request.known?.git;
  const id = pending?.checkpointId ?? randomUUID();
  const workTree = workTreeOf(request, state);
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
      project: { setting: config.projectFiles, levels: config.levels },
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
 * The session learned a secret since its rows were last gone through (in this checkpoint, or in
 * the hooks since): its earlier checkpoints, summaries and handoffs are redacted again with it,
 * and the memory is kept with the cached state. What the home had not learned yet is then looked
 * for in every other session's rows, by a job started detached (`shim background
 * spread-learned`: a pass over the whole store, not for a hook to wait on). A failure is logged:
 * the checkpoint stands.
 */
async function forgetLearnedSecrets(
  captured: Captured,
  sessionId: string,
  memory: SecretMemory,
): Promise<void> {
  const { request, path, state, store } = captured;
  try {
    const before = store.learned.last();
    redactStoredSession(store, sessionId, memory);
    keepSessionMemory(request.home, path, state, memory);
    if (store.learned.last() === before) return;
    const job = ['background', 'spread-learned', '--after', String(before)];
    // Not started from a library caller (a test runner is no shim binary): done here then.
    if (!(await runShimInBackground(job, request.cwd, request.env, request.home)))
      spreadLearnedSecrets(store, request.home, before);
  } catch (error) {
    appendLog(request.home, 'error', 'could not redact the stored session again', {
      sessionId,
      error: String(error),
    });
  }
}

/** What is known once git has been captured: the rest of building and storing. */
type Captured = DraftParts & {
  path: string;
  store: Store;
  started: number;
  sync: ShimConfig['sync'];
  /** The project's own files (opt-in, app/project-files.ts) and the levels its state names. */
  project: { setting: ShimConfig['projectFiles']; levels: ShimConfig['levels'] };
  /** How it is stored: as what changed since `previous` (store/checkpoints/checkpoint-chain.ts). */
  chain: ChainSettings;
};

async function finishCheckpoint(captured: Captured): Promise<CheckpointResult> {
  const { request, path, state, store, started, id, git, previous, assessment } = captured;
  const sessionId = state.sessionId ?? logName(path);
  const wipCommit =
    request.wipCommit && git?.repoRoot
      ? commitWip(
          git.repoRoot,
          `WIP: shim checkpoint ${id.slice(0, 8)}${request.reason ? ` (${request.reason})` : ''}`,
        )
      : null;
  // What any session of this home learned is a secret (what this one inherited included), then
  // the session's own memory of its secrets: what it found anywhere is replaced here too.
  const known = store.learned.all();
  const draft = forgetRememberedValue(draftCheckpoint(captured), SecretMemory.from(known.lines));
  const memory = SecretMemory.from(state.secretMemory);
  const sealed = await sealCheckpoint(draft.value, memory);
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
    {
      last: known.last,
      scrub: (sealed, lines) => {
        const scrubbed = forgetRememberedValue(sealed, SecretMemory.from(lines));
        return scrubbed.findings > 0 ? scrubbed.value : null;
      },
    },
  );
  if (memory.size > (state.secretMemoryStored ?? 0))
    await forgetLearnedSecrets(captured, sessionId, memory);
  // The issue the session works on hears of it at the moments that matter (queued; sent later).
  await queueTrackerSync({
    store,
    checkpoint: stored.checkpoint,
    config: captured.sync,
    home: request.home,
    env: request.env,
  });
  if (captured.project.setting.enabled)
    keepProjectState(store, request.home, {
      ...captured.project,
      checkpoint: stored.checkpoint,
      assessment,
      agent: request.log.agent.id,
      startedAt: state.startedAt,
      memory,
    });
  return {
    checkpoint: stored.checkpoint,
    size: stored.size,
    assessment,
    redactions: sealed.findings + draft.findings,
    wipCommit,
    durationMs: performance.now() - started,
  };
}
