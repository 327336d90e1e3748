/**
 * UserPromptSubmit: from L1 on, one factual line for the model about where the context stands;
 * and when the request names a plan that will not fit in what is left, one note about it (once
 * per plan and session).
 * @module
 */
import { assessInsideAgent } from '../../app/session/assess-live-session.ts';
import { isCompactionDue } from '../../core/context/alerts.ts';
import { mentionedPlans } from '../../app/tasks/plan-mentions.ts';
import { createSessionState } from '../../core/session.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { fnvHash } from '../../core/fnv-hash.ts';
import { formatTurnsLeft, pluralFor } from '../../core/context/turns-left-text.ts';
import { isTeamConfigured } from '../../app/team/team-settings.ts';
import { claimOnce, loadHookMemory, saveHookMemory } from '../../store/cache/hook-memory.ts';
import { appendLog } from '../../store/home/log.ts';
import { loadHookContext, type HookContext } from '../context.ts';
import { loadHeavy } from '../load-heavy.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';

export async function handleUserPromptSubmit(run: HookRun): Promise<HookOutput> {
  endQuietWindowForTeam(run);
  const context = await loadHookContext(run);
  const level = context ? levelLine(context) : null;
  // A session's first request can come before its transcript exists: a plan is sized then
  // against a session that has used nothing yet.
  const plan = await planNote(run, context ?? emptySession(run));
  const notes = [plan?.model, level].filter((n): n is string => Boolean(n));
  return {
    ...(notes.length > 0 ? { context: notes.join('\n') } : {}),
    ...(plan ? { userMessage: plan.user } : {}),
  };
}

/**
 * With a team store connected a new request is a checkpoint (another machine restores from the
 * last one that reached the server: docs/team.md), and only a full look sees it: the quiet
 * window the last look granted ends here, so the next tool call looks.
 */
function endQuietWindowForTeam(run: HookRun): void {
  const sessionId = run.payload.sessionId;
  if (!sessionId || !isTeamConfigured(run.config, run.env)) return;
  const memory = loadHookMemory(run.home, sessionId);
  if (memory.quiet) saveHookMemory(run.home, sessionId, { ...memory, quiet: null });
}

function emptySession(run: HookRun): HookContext {
  const state = createSessionState(run.agent.id);
  const assessment = assessInsideAgent(run.agent, state, {
    home: run.home,
    env: run.env,
    now: run.now,
    config: run.config,
    sessionId: run.payload.sessionId,
    memory: null,
  });
  return { state, offset: null, assessment, config: run.config, current: true };
}

function levelLine(context: HookContext): string | null {
  const a = context.assessment;
  // Past the threshold Claude Code compacts before sending this prompt: the line would arrive
  // after the compaction, about the context before it (the restore says what matters).
  if (a.level === 'L0' || isCompactionDue(a)) return null;
  const turns = a.forecast.turnsToCompact;
  const forecast =
    turns === null
      ? ''
      : turns === 0
        ? ' Auto-compaction is due.'
        : ` About ${formatTurnsLeft(a.forecast)!.replace(/^~/, '')} more ${pluralFor(a.forecast, 'response')} fit before auto-compaction.`;
  return `[shim] Context is at ${Math.round(a.percent)}% of the auto-compact threshold (${a.level}).${forecast} Progress is checkpointed and will be restored after compaction; carry on with the user's request.`;
}

/** The first plan the prompt names that will not fit, warned about once per session. */
async function planNote(
  run: HookRun,
  context: HookContext,
): Promise<{ user: string; model: string } | null> {
  const { payload, home } = run;
  if (!payload.prompt || !payload.sessionId) return null;
  const root = findProjectRoot(payload.cwd ?? context.state.cwd ?? process.cwd());
  const plans = mentionedPlans(payload.prompt, root);
  if (plans.length === 0) return null;
  try {
    const { warnAboutPlan } = await loadHeavy();
    for (const planPath of plans) {
      const warning = warnAboutPlan({
        planPath,
        root,
        home,
        state: context.state,
        assessment: context.assessment,
      });
      if (warning && claimOnce(home, payload.sessionId, `plan-${fnvHash(planPath)}`))
        return warning;
    }
  } catch (error) {
    appendLog(home, 'warn', 'UserPromptSubmit: the plan could not be sized', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return null;
}
