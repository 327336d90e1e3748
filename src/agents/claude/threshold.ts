/**
 * Where Claude Code auto-compacts a session (the adapter's `threshold`): the rule of its CLI era
 * for the window the user chose, checked against the user's own compactions
 * (compaction/compact-threshold.ts), with the environment and settings Claude Code itself runs
 * with — read inside it, else as its hooks recorded them, else this shell's
 * (compaction/threshold-inputs.ts).
 * @module
 */
import {
  getObservedMax,
  getSessionSamples,
  type CompactSample,
} from '../../core/context/threshold.ts';
import type { SessionState } from '../../core/session.ts';
import { appendLog } from '../../store/home/log.ts';
import type { ThresholdInputs, ThresholdRequest, ThresholdRules } from '../agent.ts';
import { loadCompactHistory } from './compaction/compact-history.ts';
import { resolveCompactThreshold } from './compaction/compact-threshold.ts';
import { pickThresholdEnv } from './compaction/compact-window.ts';
import { recordInputs } from './compaction/recorded-inputs.ts';
import { getThresholdInputs } from './compaction/threshold-inputs.ts';

/** The user's auto compactions, from the cache of their transcripts (rescanned when old). */
function historyOf(request: ThresholdRequest): readonly CompactSample[] {
  const { history } = request;
  if (typeof history !== 'string') return history;
  if (history === 'none' || request.home === null) return [];
  return loadCompactHistory(request.home, {
    env: request.env,
    // Per-call paths take the cache at any age: a rescan reads every transcript.
    ...(history === 'cached' ? { maxAgeMs: Number.POSITIVE_INFINITY } : {}),
  });
}

function describe(source: ThresholdInputs['source'], recordedAt: number | null): string {
  if (source === 'recorded') {
    const at = recordedAt === null ? '?' : new Date(recordedAt).toISOString();
    return `env and settings as this session's hooks saw them inside Claude Code (recorded ${at})`;
  }
  if (source === 'inside') return 'env and settings read inside Claude Code';
  return 'env from this shell and the Claude Code settings files (no hook has recorded this session yet)';
}

export const claudeThreshold: ThresholdRules = {
  prepare: (session, request) => {
    const { home } = request;
    const inside = request.inside !== null;
    const inputs: ReturnType<typeof getThresholdInputs> =
      home === null
        ? {
            env: request.env,
            settings: [],
            reportedWindow: request.reportedWindow,
            source: 'shell',
            recorded: null,
          }
        : getThresholdInputs({
            home,
            env: request.env,
            sessionId: session.sessionId,
            cwd: session.cwd,
            insideClaudeCode: inside,
            reportedWindow: request.reportedWindow,
            ...(request.managedSettingsPath
              ? { managedSettingsPath: request.managedSettingsPath }
              : {}),
          });
    const history = historyOf(request);
    const threshold = (state: SessionState) =>
      resolveCompactThreshold({
        model: state.model,
        cliVersion: state.cliVersion,
        env: inputs.env,
        samples: [...history, ...getSessionSamples(state)],
        observedMaxContext: getObservedMax(state),
        reportedWindow: inputs.reportedWindow,
        settings: inputs.settings,
      });
    if (home !== null && request.inside && session.sessionId) {
      try {
        recordInputs(
          home,
          {
            sessionId: session.sessionId,
            by: request.inside,
            env: pickThresholdEnv(request.env),
            settings: inputs.settings,
            model: session.model,
            windowTokens: request.reportedWindow,
            compactThreshold: threshold(session).compactThreshold,
          },
          request.now,
        );
      } catch (error) {
        appendLog(home, 'warn', 'could not record the threshold inputs', {
          error: String(error),
        });
      }
    }
    const { source } = inputs;
    const recordedAt = inputs.recorded?.recordedAt ?? null;
    return { inputs: { source, recordedAt, detail: describe(source, recordedAt) }, threshold };
  },
};
