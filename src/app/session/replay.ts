/**
 * Replays a transcript as the live hooks would have seen it: line by line, each response
 * judged with only the lines up to its last one.
 * @module
 */
import { assessSession, type Assessment } from '../../core/context/assess.ts';
import { classifyCompaction, type CompactionKind } from '../../core/context/compaction-kind.ts';
import type { Level, LevelThresholds } from '../../core/context/level.ts';
import type { CrashRisk, RiskThresholds } from '../../core/context/risk.ts';
import type { SessionState } from '../../core/session.ts';
import type { FoldListener, ReadOptions } from '../../transcript/reader.ts';
import type { Env } from '../../store/home/home.ts';
import type { Agent, ThresholdJudge, ThresholdRequest } from '../../agents/agent.ts';

export type ReplayTurn = {
  kind: 'turn';
  line: number;
  turn: number;
  contextTokens: number;
  windowTokens: number;
  compactThreshold: number;
  percent: number;
  level: Level;
  risk: CrashRisk;
  turnsToCompact: number | null;
  /** The forecast's 80% interval. */
  turnsToCompactLow: number | null;
  turnsToCompactHigh: number | null;
};

export type ReplayCompact = {
  kind: 'compact';
  line: number;
  trigger: 'auto' | 'manual';
  preTokens: number | null;
  /** Context of the last response before it. */
  lastContextTokens: number | null;
  /** threshold, idle, put-off or manual: only a threshold compaction says where the threshold is. */
  compactionKind: CompactionKind;
};

export type ReplayEvent = ReplayTurn | ReplayCompact;

/** What a replay knows beyond the contract fields, for the readable timeline. */
export type ReplayDetail = {
  assessment: Assessment;
  at: number | null;
  /** The session's tool calls and failed ones so far (results read up to this response). */
  toolCalls: number;
  toolFailures: number;
};

export type ReplayOptions = {
  env: Env;
  /** SHIM_HOME, for what the agent's rule reads there (what its hooks recorded); null: nothing. */
  home: string | null;
  /** What the threshold learns from (ThresholdRequest.history). */
  history: ThresholdRequest['history'];
  risk?: RiskThresholds;
  levels?: LevelThresholds;
  /** Evaluation baselines: judge every response against this threshold instead. */
  fixedThreshold?: number;
  /** Growth steps from other sessions, for the forecast's interval. */
  growthProfile?: readonly number[];
  onEvent: (event: ReplayEvent, detail: ReplayDetail | null) => void;
};

/** Replays `path`, calling `onEvent` in file order; returns the final session state. */
export async function replayTranscript(
  path: string,
  agent: Agent,
  options: ReplayOptions,
): Promise<SessionState> {
  let pending: { event: ReplayTurn; detail: ReplayDetail } | null = null;
  // The rule's inputs (settings, what the session's hooks recorded) are read once, at the first
  // response, when the log has said which session and directory it is.
  let judge: ThresholdJudge | null = null;
  let lastThreshold: number | undefined;
  const listener: FoldListener = {
    onResponse: (response) => {
      if (pending && pending.event.turn === response.turn)
        options.onEvent(pending.event, pending.detail);
      pending = null;
    },
    onCompaction: (c) =>
      options.onEvent(
        {
          kind: 'compact',
          line: c.line,
          trigger: c.trigger,
          preTokens: c.preTokens,
          lastContextTokens: c.lastContextTokens,
          compactionKind: classifyCompaction(c, lastThreshold),
        },
        null,
      ),
  };
  const readOptions: ReadOptions = {
    listener,
    finalize: true,
    onEntry: (entry, line, state) => {
      const current = state.current;
      // A response's newest line (only response lines move `lastLine`).
      if (!current || current.lastLine !== line) return;
      judge ??= agent.threshold.prepare(state, {
        env: options.env,
        home: options.home,
        now: Date.now(),
        history: options.history,
        inside: null,
        reportedWindow: null,
      });
      const now = (entry as { at?: number | null }).at ?? state.lastActivityAt ?? 0;
      const assessment = assessSession(state, {
        threshold: judge.threshold(state),
        now,
        ...(options.risk ? { risk: options.risk } : {}),
        ...(options.levels ? { levels: options.levels } : {}),
        ...(options.fixedThreshold !== undefined ? { fixedThreshold: options.fixedThreshold } : {}),
        ...(options.growthProfile ? { growthProfile: options.growthProfile } : {}),
      });
      lastThreshold = assessment.compactThreshold;
      pending = {
        event: {
          kind: 'turn',
          line,
          turn: current.turn,
          contextTokens: assessment.contextTokens,
          windowTokens: assessment.windowTokens,
          compactThreshold: assessment.compactThreshold,
          percent: assessment.percent,
          level: assessment.level,
          risk: assessment.risk,
          turnsToCompact: assessment.forecast.turnsToCompact,
          turnsToCompactLow: assessment.forecast.turnsToCompactLow,
          turnsToCompactHigh: assessment.forecast.turnsToCompactHigh,
        },
        detail: {
          assessment,
          at: current.at,
          toolCalls: state.toolCalls,
          toolFailures: state.toolFailures,
        },
      };
    },
  };
  return agent.log.isCompressed(path)
    ? agent.log.readCompressed(path, readOptions)
    : agent.log.read(path, null, readOptions).cursor.state;
}
