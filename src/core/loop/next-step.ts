/**
 * What the loop does after an iteration: finish, continue the same agent session, restart with
 * a fresh one, wait out a limit, or stop. Pure: every fact comes in, one decision goes out, and
 * the order of the rules below is the policy.
 * @module
 */
import type { AgentId } from '../agent-id.ts';
import type { StuckVerdict } from './stuck.ts';
import { planLimitWait } from './usage-limit.ts';

export type IterationEnd =
  /** The agent finished its turn (a result line came). */
  | 'finished'
  /** The supervisor ended it at a safe point because the context crossed the threshold. */
  | 'context_threshold'
  | 'timeout'
  /** Exited without a result, not stopped by the supervisor. */
  | 'crashed'
  | 'usage_limit'
  /** A non-limit API error (overloaded, server error) ended the turn. */
  | 'api_error'
  /** The agent was gone when a resumed supervisor looked (it died with the supervisor). */
  | 'orphaned'
  /** The turn ended (a clean result) while background work it started was still running. */
  | 'mid_work'
  /** The agent refused the turn: its conversation no longer fits the window ("Prompt is too long"). */
  | 'context_overflow';

export type RestartReason = 'context_exhaustion' | 'stuck' | 'crash' | 'timeout';

export type NextStepInput = {
  end: IterationEnd;
  now: number;
  iteration: number;
  maxIterations: number;
  restarts: number;
  maxRestarts: number;
  costUsd: number;
  budgetUsd: number | null;
  /** The agent printed the completion marker this iteration. */
  claimedCompletion: boolean;
  /** The test command's verdict when it ran (only after a claim), null when none is set. */
  testsPassed: boolean | null;
  testTail: string | null;
  testCommand: string | null;
  /** The context at the iteration's end, as percent of the compact threshold. */
  lastPercent: number;
  thresholdPercent: number;
  sessionKnown: boolean;
  limitResetsAt: number | null;
  limitAttempts: number;
  /** Extra wait after a reported reset. */
  limitMarginMs?: number;
  /** First pause after a transient API error. */
  retryBaseMs?: number;
  transientErrors: number;
  consecutiveCrashes: number;
  stuck: StuckVerdict;
  /** A stuck restart already happened and nothing changed since. */
  stuckRestarted: boolean;
  errorText: string | null;
  /** What was still running in the background when a `mid_work` turn ended. */
  pendingWork?: string[];
  /** Some of it is a scheduled prompt (Claude Code's CronCreate), which needs the agent's hand. */
  pendingScheduled?: boolean;
  /** At a usage limit: the run's other agent, free of limits now (agent-fallback.ts), or null. */
  fallbackAgent?: AgentId | null;
  /** The agent can fork a session at an earlier message (AgentCapabilities.forkAtMessage). */
  canRescue?: boolean;
};

export type NextStep =
  | { kind: 'complete'; reason: string }
  | { kind: 'continue'; note: string | null }
  | { kind: 'restart'; reason: RestartReason; fresh: boolean; detail: string }
  | { kind: 'wait'; until: number; reason: string; limit: boolean }
  /** Carry on in another agent, from a checkpoint of the session being left. */
  | { kind: 'switch_agent'; to: AgentId; reason: string }
  /** Fork the session at the last message that fits, with shim's restore (`shim rescue`). */
  | { kind: 'rescue'; detail: string }
  | { kind: 'stop'; status: 'stopped' | 'failed'; reason: string; detail: string };

const MAX_TRANSIENT_ERRORS = 5;

export function decideNextStep(input: NextStepInput): NextStep {
  const tested = input.testCommand !== null;
  if (input.claimedCompletion && (!tested || input.testsPassed === true)) {
    return {
      kind: 'complete',
      reason: tested
        ? `the agent reported completion and \`${input.testCommand}\` passed`
        : 'the agent reported completion',
    };
  }
  if (input.budgetUsd !== null && input.costUsd >= input.budgetUsd) {
    return stop(
      'stopped',
      'budget_exceeded',
      `spent $${input.costUsd.toFixed(2)} of the $${input.budgetUsd.toFixed(2)} budget`,
    );
  }
  if (input.end === 'usage_limit' && input.fallbackAgent) {
    if (input.iteration >= input.maxIterations) {
      return stop(
        'stopped',
        'max_iterations',
        `reached the limit of ${input.maxIterations} iterations without completion`,
      );
    }
    return {
      kind: 'switch_agent',
      to: input.fallbackAgent,
      reason: `a usage limit${input.errorText ? ` (${input.errorText})` : ''}`,
    };
  }
  if (input.end === 'usage_limit') {
    const wait = planLimitWait({
      resetsAt: input.limitResetsAt,
      attempt: input.limitAttempts,
      now: input.now,
      ...(input.limitMarginMs !== undefined ? { marginMs: input.limitMarginMs } : {}),
    });
    if (wait.action === 'give_up') return stop('stopped', 'usage_limit', wait.reason);
    return { kind: 'wait', until: wait.until, reason: wait.reason, limit: true };
  }
  if (input.end === 'api_error' && input.transientErrors < MAX_TRANSIENT_ERRORS) {
    const wait = planLimitWait({
      resetsAt: null,
      attempt: input.transientErrors,
      now: input.now,
      fallbackMs: input.retryBaseMs ?? 15_000,
      maxBackoffMs: 5 * 60_000,
    });
    if (wait.action === 'wait') {
      return {
        kind: 'wait',
        until: wait.until,
        reason: `API error (${input.errorText ?? 'unknown'}); retrying after a pause`,
        limit: false,
      };
    }
  }

  let step: NextStep;
  if (input.stuck.stuck) {
    step = input.stuckRestarted
      ? stop('stopped', 'stuck', `${input.stuck.detail} (again after a fresh restart)`)
      : restart(input, 'stuck', true, input.stuck.detail);
  } else if (
    input.end === 'context_threshold' ||
    (input.end === 'finished' && input.lastPercent >= input.thresholdPercent)
  ) {
    step = restart(
      input,
      'context_exhaustion',
      true,
      `context at ${input.lastPercent.toFixed(0)}% of the auto-compact threshold (limit ${input.thresholdPercent}%)`,
    );
  } else if (input.end === 'context_overflow') {
    const detail = `the session no longer fits its context window${input.errorText ? ` (${input.errorText})` : ''}`;
    // A fork keeps the real conversation up to the last message that fits; without one (another
    // agent, an unknown session) a fresh session with the summary. Either uses a restart.
    step =
      input.canRescue && input.sessionKnown && input.restarts < input.maxRestarts
        ? { kind: 'rescue', detail }
        : restart(input, 'context_exhaustion', true, detail);
  } else if (input.end === 'timeout') {
    step = restart(input, 'timeout', true, 'the agent did not finish within the iteration timeout');
  } else if (input.end === 'crashed' || input.end === 'api_error') {
    // The session's transcript holds the work: continue it, unless it keeps failing.
    const fresh = !input.sessionKnown || input.consecutiveCrashes >= 2;
    step = restart(
      input,
      'crash',
      fresh,
      input.errorText
        ? `the agent failed: ${input.errorText}`
        : 'the agent exited without a result',
    );
  } else if (input.end === 'mid_work') {
    // Never a completion: the work the turn started is not finished (anthropics/claude-code#87836).
    const note = midWorkNote(input.pendingWork ?? [], input.pendingScheduled === true);
    step = input.sessionKnown
      ? { kind: 'continue', note }
      : restart(input, 'crash', true, 'the turn ended with background work still running');
  } else if (input.end === 'orphaned') {
    step = {
      kind: 'continue',
      note: 'Your previous turn was interrupted before it finished. Check the state of your work and carry on.',
    };
  } else {
    step = { kind: 'continue', note: continueNote(input) };
  }

  if (
    (step.kind === 'continue' || step.kind === 'restart' || step.kind === 'rescue') &&
    input.iteration >= input.maxIterations
  ) {
    return stop(
      'stopped',
      'max_iterations',
      `reached the limit of ${input.maxIterations} iterations without completion`,
    );
  }
  return step;
}

function midWorkNote(pending: string[], scheduled: boolean): string {
  const what = pending.length > 0 ? ` (${pending.slice(0, 5).join('; ')})` : '';
  // Headless, the agent's process ends with each turn: a scheduled prompt never comes due there.
  const cron = scheduled
    ? ' A scheduled prompt does not run by itself here (each turn ends the process): do its work now, and cancel the job (CronDelete with its id) once it is not needed.'
    : '';
  return `Your previous turn ended while background work you started was still running${what}. Check whether it finished and what it produced, and carry on.${cron} Report completion only once nothing you started is still running.`;
}

function continueNote(input: NextStepInput): string | null {
  if (input.claimedCompletion && input.testsPassed === false) {
    const tail = (input.testTail ?? '').trim();
    return `You reported completion, but the test command \`${input.testCommand}\` failed${tail ? `:\n\n\`\`\`\n${tail}\n\`\`\`` : '.'}\nFix what it reports before reporting completion again.`;
  }
  return null;
}

function restart(
  input: NextStepInput,
  reason: RestartReason,
  fresh: boolean,
  detail: string,
): NextStep {
  if (input.restarts >= input.maxRestarts) {
    return stop(
      'stopped',
      'max_restarts',
      `${detail}; no restarts left (${input.restarts} of ${input.maxRestarts} used)`,
    );
  }
  return { kind: 'restart', reason, fresh, detail };
}

function stop(status: 'stopped' | 'failed', reason: string, detail: string): NextStep {
  return { kind: 'stop', status, reason, detail };
}
