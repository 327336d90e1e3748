/**
 * `shim forget <checkpoint|session>` (and the MCP tool shim_forget): removes a bad checkpoint, or
 * a whole session, from everything shim keeps — store rows, search index (no byte of it left in
 * the file), restores, handoff documents, git snapshot refs, for a session its caches under
 * SHIM_HOME, and with a team store its rows on the server — and nothing else. `dryRun` says what
 * would go.
 * @module
 */
import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { deleteSnapshot } from '../../capture/git-snapshots.ts';
import { AppError } from '../../core/errors.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import { forgetCursor } from '../../store/cache/cursor-cache.ts';
import { forgetGrowthSteps } from '../../store/estimates/growth-profile.ts';
import type { ForgetPlan, ForgetTarget } from '../../store/ports/forgetting.ts';
import { findCheckpoint } from '../checkpoint/find-checkpoint.ts';
import { withStore } from '../open-store.ts';
import {
  forgetOnTeam,
  forgetOnTeamOnly,
  teamConnected,
  type TeamReach,
} from '../team/forget-on-team.ts';

export type ForgetResult = {
  target: ForgetTarget;
  dryRun: boolean;
  rows: Record<string, number>;
  checkpoints: string[];
  handoffFiles: string[];
  snapshotRefs: number;
  cacheFiles: number;
  /** The session's windows in cache/growth-profile.json. */
  profileEntries: number;
  /** Sessions restored from it: they keep their rows (and may carry its words on). */
  restoredInto: string[];
  /** Rows removed from the team store per table (null: none connected, or a dry run). */
  team: Record<string, number> | null;
  /** The team store did not answer: what it said (forget the full id again when it answers). */
  teamError: string | null;
};

/** Per-session files under SHIM_HOME/cache/<dir>/ named after the session (hook claims too). */
const SESSION_CACHE_DIRS = ['hooks', 'statusline', 'inputs', 'mod', 'transcript-alarms'];

function sessionCacheFiles(home: string, sessionId: string): string[] {
  const base = safeFileName(sessionId);
  return SESSION_CACHE_DIRS.flatMap((dir) => {
    const path = join(home, 'cache', dir);
    try {
      return readdirSync(path)
        .filter((name) => name === `${base}.json` || name.startsWith(`${base}.`))
        .map((name) => join(path, name));
    } catch {
      return [];
    }
  });
}

/**
 * A full session id; else a checkpoint or a session by its id or a unique prefix — the 8
 * characters `shim list` prints of either. A prefix of both a checkpoint and a session is refused:
 * forgetting cannot be undone.
 */
async function resolveTarget(home: string, what: string): Promise<ForgetPlan> {
  return withStore(home, ({ forgetting, checkpoints, transfer }) => {
    const asSession = forgetting.plan({ kind: 'session', id: what });
    if (asSession) return asSession;
    let checkpointId: string | null = null;
    try {
      checkpointId = findCheckpoint(checkpoints, what).id;
    } catch (error) {
      if (error instanceof AppError && error.code === 'USAGE') throw error;
    }
    const sessions = transfer.sessionIdsStartingWith(what, 6);
    if (checkpointId !== null && sessions.length > 0)
      throw new AppError(
        'USAGE',
        `"${what}" starts both checkpoint ${checkpointId} and session ${sessions[0]}`,
        'give more characters of the one to forget',
      );
    if (checkpointId !== null) return forgetting.plan({ kind: 'checkpoint', id: checkpointId })!;
    if (sessions.length > 1)
      throw new AppError(
        'USAGE',
        `"${what}" matches ${sessions.length > 5 ? 'more than 5' : sessions.length} sessions (${sessions.slice(0, 5).join(', ')})`,
        'give more characters of the session id',
      );
    const plan = sessions.length === 1 && forgetting.plan({ kind: 'session', id: sessions[0]! });
    if (plan) return plan;
    throw new AppError(
      'CHECKPOINT_NOT_FOUND',
      `no checkpoint or session "${what}" in the store`,
      'give a checkpoint id or a session id (or their first 8 characters), as `shim list` shows them',
    );
  });
}

export async function forget(request: {
  home: string;
  what: string;
  dryRun?: boolean;
  /** The team store to reach too (when one is connected). */
  team?: TeamReach;
}): Promise<ForgetResult> {
  const { home } = request;
  const what = request.what.trim();
  if (!what)
    throw new AppError('USAGE', 'nothing to forget', 'give a checkpoint id or a session id');
  let plan: ForgetPlan;
  try {
    plan = await resolveTarget(home, what);
  } catch (error) {
    const onlyThere = await forgetOnlyOnTeam(what, request, error);
    if (onlyThere) return onlyThere;
    throw error;
  }
  const transcripts =
    plan.target.kind === 'session'
      ? await withStore(home, ({ forgetting }) => forgetting.transcriptPaths(plan.target.id))
      : [];
  const cacheFiles = plan.target.kind === 'session' ? sessionCacheFiles(home, plan.target.id) : [];
  const result: ForgetResult = {
    target: plan.target,
    dryRun: request.dryRun === true,
    rows: plan.rows,
    checkpoints: plan.checkpoints.map((c) => c.id),
    handoffFiles: plan.handoffPaths,
    snapshotRefs: plan.checkpoints.filter((c) => c.snapshotRef !== null).length,
    cacheFiles: cacheFiles.length,
    profileEntries: 0,
    restoredInto: plan.restoredInto,
    team: null,
    teamError: null,
  };
  if (request.dryRun) return result;
  // Here first: its outbox entries go, so no worker sends it to the server again.
  await withStore(home, ({ forgetting }) => forgetting.forget(plan));
  for (const path of [...plan.handoffPaths, ...cacheFiles]) {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  }
  for (const transcript of transcripts) forgetCursor(home, transcript);
  const profileEntries =
    plan.target.kind === 'session' ? forgetGrowthSteps(home, plan.target.id) : 0;
  let refs = 0;
  for (const c of plan.checkpoints)
    if (c.snapshotRef !== null && c.cwd !== null && deleteSnapshot(c.cwd, c.id)) refs++;
  return { ...result, snapshotRefs: refs, profileEntries, ...(await onTeam(plan.target, request)) };
}

async function onTeam(
  target: ForgetTarget,
  request: { team?: TeamReach },
): Promise<Pick<ForgetResult, 'team' | 'teamError'>> {
  if (!request.team) return { team: null, teamError: null };
  try {
    return { team: await forgetOnTeam(target, request.team), teamError: null };
  } catch (error) {
    return { team: null, teamError: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Nothing of it here, but a team store is connected: the full id of a session or checkpoint
 * forgotten here while the server did not answer is forgotten there now.
 */
async function forgetOnlyOnTeam(
  what: string,
  request: { dryRun?: boolean; team?: TeamReach },
  error: unknown,
): Promise<ForgetResult | null> {
  if (!(error instanceof AppError) || error.code !== 'CHECKPOINT_NOT_FOUND') return null;
  if (request.dryRun || !request.team || !teamConnected(request.team) || what.length < 32)
    return null;
  const found = await forgetOnTeamOnly(what, request.team);
  if (found === null) return null;
  return {
    target: found.target,
    dryRun: false,
    rows: {},
    checkpoints: [],
    handoffFiles: [],
    snapshotRefs: 0,
    cacheFiles: 0,
    profileEntries: 0,
    restoredInto: [],
    team: found.rows,
    teamError: null,
  };
}
