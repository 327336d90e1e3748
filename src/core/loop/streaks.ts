/**
 * Counters of iterations in a row that ended the same way. Each resets as soon as an iteration
 * ends otherwise: a usage limit after a crash does not make a second crash "consecutive".
 * @module
 */
import type { IterationEnd } from './next-step.ts';

export type Streaks = {
  /** Usage-limit waits in a row. */
  limitAttempts: number;
  /** Transient API errors in a row (their retry pause doubles with each). */
  transientErrors: number;
  /** Crashes and API errors in a row. */
  consecutiveCrashes: number;
};

export function advanceStreaks(streaks: Streaks, end: IterationEnd): Streaks {
  return {
    limitAttempts: end === 'usage_limit' ? streaks.limitAttempts + 1 : 0,
    transientErrors: end === 'api_error' ? streaks.transientErrors + 1 : 0,
    consecutiveCrashes:
      end === 'crashed' || end === 'api_error' ? streaks.consecutiveCrashes + 1 : 0,
  };
}
