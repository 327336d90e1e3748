/**
 * Claude Code's rule for tests that assess a session: a bare judgment (no SHIM_HOME, no settings
 * files), with what the test gives (env, history, a reported window).
 * @module
 */
import type { CompactThreshold } from '../../core/context/threshold.ts';
import type { SessionState } from '../../core/session.ts';
import type { ThresholdRequest } from '../agent.ts';
import { claudeThreshold } from './threshold.ts';

export function claudeRuleFor(
  state: SessionState,
  request: Partial<Omit<ThresholdRequest, 'home'>> = {},
): CompactThreshold {
  return claudeThreshold
    .prepare(state, {
      env: {},
      now: 0,
      history: [],
      inside: null,
      reportedWindow: null,
      ...request,
      home: null,
    })
    .threshold(state);
}
