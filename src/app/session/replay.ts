/**
 * Replays a transcript as the live hooks would have seen it: line by line, each response
 * judged with only the lines up to its last one.
 * @module
 */
import { assessSession, type Assessment } from '../../core/context/assess.ts';
import type { CompactSample, SettingsWindows } from '../../core/compact-threshold.ts';
import { classifyCompaction, type CompactionKind } from '../../core/context/compaction-kind.ts';
import type { Level, LevelThresholds } from '../../core/context/level.ts';
import type { CrashRisk, RiskThresholds } from '../../core/context/risk.ts';
import type { SessionState } from '../../core/session.ts';
import type { AgentId } from '../../core/agent-id.ts';
import type { ReadOptions as LogReadOptions } from '../../transcript/reader.ts';
import { loadAgentAdapter, logAgent, readAgentLog } from './load-agent.ts';
import type { FoldListener } from '../../agents/claude/fold.ts';
import {
  isCompressed,
  readCompressedTranscript,
  readTranscript,
  type TranscriptReadOptions as ReadOptions,
} from '../../agents/claude/transcript-reader.ts';

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
  env: Readonly<Record<string, string | undefined>>;
  history: readonly CompactSample[];
  risk?: RiskThresholds;
  levels?: LevelThresholds;
  /** Claude Code settings files that set a compaction window (see agents/claude/threshold-inputs.ts). */
  settings?: readonly SettingsWindows[];
  /** Evaluation baselines: judge every response against this threshold instead. */
  fixedThreshold?: number;
  /** Growth steps from other sessions, for the forecast's interval. */
  growthProfile?: readonly number[];
  onEvent: (event: ReplayEvent, detail: ReplayDetail | null) => void;
  /** The agent whose log this is (`--agent`); by default its file name decides. */
  agent?: AgentId | null;
};

/** Replays `path`, calling `onEvent` in file order; returns the final session state. */
export async function replayTranscript(
  path: string,
  options: ReplayOptions,
): Promise<SessionState> {
  let pending: { event: ReplayTurn; detail: ReplayDetail } | null = null;
  const agent = logAgent(path, options.agent);
  const adapter = agent === 'claude' ? null : await loadAgentAdapter(agent);
  const configuredLimit = adapter ? adapter.threshold.configuredLimit(options.env) : null;
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
      const rule = adapter?.threshold.threshold({
        model: state.model,
        windowTokens: state.logWindowTokens ?? null,
        configuredLimit,
      });
      const now = entry.at ?? state.lastActivityAt ?? 0;
      const assessment = assessSession(state, {
        env: options.env,
        history: options.history,
        now,
        ...(options.risk ? { risk: options.risk } : {}),
        ...(options.levels ? { levels: options.levels } : {}),
        ...(options.settings ? { settings: options.settings } : {}),
        ...(options.fixedThreshold !== undefined ? { fixedThreshold: options.fixedThreshold } : {}),
        ...(options.growthProfile ? { growthProfile: options.growthProfile } : {}),
        ...(rule
          ? {
              agentThreshold: {
                windowTokens: rule.windowTokens,
                compactThreshold: rule.tokens,
                source: rule.configured ? ('settings' as const) : ('default' as const),
                detail: rule.source,
              },
            }
          : {}),
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
  if (adapter) return readAgentLog(path, agent, readOptions as LogReadOptions);
  if (isCompressed(path)) return readCompressedTranscript(path, readOptions);
  return readTranscript(path, null, readOptions).cursor.state;
}
