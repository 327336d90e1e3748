/**
 * How an iteration ended, from one recorded termination reason and what the agent's stream said.
 * The supervisor records at most one reason per iteration (the first way it stopped the agent,
 * see loop/termination.ts); everything else is derived here, so the rule can be read and tested
 * in one place.
 * @module
 */
import type { IterationEnd } from './next-step.ts';

/** Why the supervisor stopped the agent, if it did. Null: the agent stopped by itself. */
export type TerminationReason = 'threshold' | 'timeout' | null;

export type IterationEvidence = {
  termination: TerminationReason;
  /** The stream reported a usage limit. */
  usageLimit: boolean;
  /** The stream's result line, if one came. */
  result: { isError: boolean } | null;
  /** The stream reported a non-limit API error. */
  apiError: boolean;
  /** A resumed supervisor found the agent already gone. */
  orphaned: boolean;
  /** Background work (tasks the agent started) still live when the stream ended. */
  pendingWork?: boolean;
  /** The agent refused the turn: the conversation no longer fits ("Prompt is too long"). */
  contextOverflow?: boolean;
};

export function classifyIterationEnd(evidence: IterationEvidence): IterationEnd {
  if (evidence.usageLimit) return 'usage_limit';
  // A clean result wins over a timeout that raced it: the turn's work is done — unless work it
  // started in the background is still running, which a turn's end does not wait for.
  if (evidence.result && !evidence.result.isError) {
    if (evidence.termination === 'threshold') return 'context_threshold';
    return evidence.pendingWork ? 'mid_work' : 'finished';
  }
  if (evidence.termination === 'threshold') return 'context_threshold';
  if (evidence.termination === 'timeout') return 'timeout';
  if (evidence.contextOverflow) return 'context_overflow';
  if (evidence.apiError) return 'api_error';
  if (evidence.orphaned && !evidence.result) return 'orphaned';
  return 'crashed';
}
