/**
 * The warning in the session (EST-002/003): a request that names a plan or spec which will not fit
 * in the context left gets one factual note — for the user and for the model — with what would
 * fit instead (a fresh session, or shards). Once per plan and session, never blocking. Learns
 * only from shim's store (no transcript is read on a hook).
 * @module
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Assessment } from '../../core/context/assess.ts';
import { formatThousands as k } from '../../core/format-tokens.ts';
import { parsePlan } from '../../core/plan/plan.ts';
import { sizePlan } from '../../core/plan/plan-size.ts';
import { DEFAULT_GROWTH, estimateTaskTokens } from '../../core/plan/task-estimate.ts';
import { getContextRoom } from '../../core/context/context-room.ts';
import { SHARD_SHARE } from '../../core/plan/shard-plan.ts';
import type { SessionState } from '../../core/session.ts';
import { fileBytesUnder } from './plan-estimate.ts';
import { storedTaskHistory } from './task-history.ts';

/** A note for the user (systemMessage) and one for the model (additionalContext). */
export type FitWarning = { user: string; model: string };

/** The note for a plan that will not fit in what is left; null when it fits or has no steps. */
export function warnAboutPlan(request: {
  planPath: string;
  root: string;
  home: string;
  state: SessionState;
  assessment: Assessment;
}): FitWarning | null {
  const { planPath, assessment, state } = request;
  const plan = parsePlan(readFileSync(planPath, 'utf8'));
  if (!plan.steps.some((s) => s.done !== true)) return null;
  const history = storedTaskHistory(request.home);
  const size = sizePlan({
    plan,
    model: history.model,
    growthPerResponse: history.medianGrowth ?? DEFAULT_GROWTH,
    fileBytes: fileBytesUnder(request.root),
    ...(state.cwd === null ? {} : { project: state.cwd }),
  });
  const { remaining, fresh } = getContextRoom(assessment, state.responses[0]?.contextTokens);
  const { tokens, low, high } = size.total;
  if (tokens <= remaining) return null;
  const budget = Math.floor(fresh * SHARD_SHARE);
  const name = relative(request.root, planPath);
  const instead =
    tokens > budget
      ? `It is more than ${Math.round(SHARD_SHARE * 100)}% of a fresh session (${k(fresh)}): \`shim shard ${name}\` splits it into pieces that fit.`
      : `A fresh session (${k(fresh)}) would hold it: checkpoint and continue there.`;
  const estimate = `~${k(tokens)} tokens of context (80%: ${k(low)}–${k(high)})`;
  return {
    user: `shim: ${name} needs ${estimate}; ${k(remaining)} are left before compaction. ${instead} You can proceed anyway.`,
    model: `[shim] The plan ${name} is estimated at ${estimate}; about ${k(remaining)} are left before auto-compaction, so it will not fit in this session. ${instead} Tell the user before starting; proceed if they want to.`,
  };
}

/**
 * The note for a task list that will not fit in what is left (EST-002): its open tasks' estimate
 * from shim's store against the context before compaction; null when it fits.
 */
export function warnAboutTasks(request: {
  home: string;
  state: SessionState;
  assessment: Assessment;
}): FitWarning | null {
  const { state, assessment } = request;
  const items = state.tasks.length > 0 ? state.tasks : state.todos;
  const open = items.filter((t) => t.status !== 'completed' && t.status !== 'deleted').length;
  if (open === 0) return null;
  const history = storedTaskHistory(request.home);
  const growth = getGrowthPerResponse(state) ?? history.medianGrowth ?? DEFAULT_GROWTH;
  const { tokens, low, high } = estimateTaskTokens(history.model, {
    openTasks: open,
    growthPerResponse: growth,
    ...(state.cwd === null ? {} : { project: state.cwd }),
  });
  const { remaining } = getContextRoom(assessment, null);
  if (tokens <= remaining) return null;
  const estimate = `~${k(tokens)} tokens of context (80%: ${k(low)}–${k(high)})`;
  const tasks = `${open} open task${open === 1 ? '' : 's'}`;
  return {
    user: `shim: the ${tasks} need ${estimate}; ${k(remaining)} are left before compaction. Progress is checkpointed; a fresh session could take the rest.`,
    model: `[shim] The ${tasks} are estimated at ${estimate}; about ${k(remaining)} are left before auto-compaction, so they will not all fit in this session. Finish and mark the current task, keep the task list up to date (it is carried into the next session), and tell the user.`,
  };
}

/** The session's context growth per response over its newest responses; null with too few. */
function getGrowthPerResponse(state: SessionState): number | null {
  const recent = state.responses.slice(-21).map((r) => r.contextTokens);
  if (recent.length < 2) return null;
  let growth = 0;
  for (let i = 1; i < recent.length; i++) growth += Math.max(0, recent[i]! - recent[i - 1]!);
  return growth / (recent.length - 1);
}
