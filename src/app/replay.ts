/**
 * Replays a transcript as the live hooks would have seen it: line by line, each response
 * judged with only the lines up to its last one.
 * @module
 */
import { assessSession, type Assessment } from '../core/assess.ts';
import type { CompactSample, SettingsWindows } from '../core/compact-threshold.ts';
import { classifyCompaction, type CompactionKind } from '../core/compaction-kind.ts';
import type { Level, LevelThresholds } from '../core/level.ts';
import type { CrashRisk, RiskThresholds } from '../core/risk.ts';
import type { SessionState } from '../core/session.ts';
import type { AgentId } from '../core/agent-id.ts';
import { agentThresholdFor } from './agent-logs.ts';
import { logAgent, readAgentLog } from './load-agent.ts';
import type { FoldListener } from '../agents/claude/fold.ts';
import {
  isCompressed,
  readCompressedTranscript,
  readTranscript,
  type TranscriptReadOptions as ReadOptions,
} from '../agents/claude/transcript-reader.ts';

import { readGeminiChat } from '../agents/gemini/chat-reader.ts';
import { geminiLogReader } from '../agents/gemini/log-reader.ts';
import { isGeminiChat } from '../agents/gemini/sessions.ts';

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
  /** Claude Code settings files that set a compaction window (see app/threshold-inputs.ts). */
  settings?: readonly SettingsWindows[];
  /** Evaluation baselines: judge every response against this threshold instead. */
  fixedThreshold?: number;
  /** Growth steps from other sessions, for the forecast's interval. */
  growthProfile?: readonly number[];
  onEvent: (event: ReplayEvent, detail: ReplayDetail | null) => void;
  /** Where another agent's settings are found (HOME, GEMINI_CLI_HOME); none: its defaults. */
  agentEnv?: Readonly<Record<string, string | undefined>>;
  /** The agent whose log this is (`--agent`); by default its file name decides. */
  agent?: AgentId | null;
};

/** Replays `path`, calling `onEvent` in file order; returns the final session state. */
export async function replayTranscript(
  path: string,
  options: ReplayOptions,
): Promise<SessionState> {
  let pending: { event: ReplayTurn; detail: ReplayDetail } | null = null;
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
  const judge = (state: SessionState, line: number, at: number | null): void => {
    const current = state.current;
    if (!current) return;
    {
      const now = at ?? state.lastActivityAt ?? 0;
      const assessment = assessSession(state, {
        ...(state.agent === 'gemini'
          ? { agentThreshold: geminiLogReader.threshold(state, options.agentEnv ?? {}) }
          : {}),
        ...(state.agent === 'codex'
          ? { agentThreshold: agentThresholdFor(state, options.agentEnv ?? options.env)! }
          : {}),
        env: options.env,
        history: options.history,
        now,
        ...(options.risk ? { risk: options.risk } : {}),
        ...(options.levels ? { levels: options.levels } : {}),
        ...(options.settings ? { settings: options.settings } : {}),
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
    }
  };
  if (logAgent(path, options.agent) === 'codex') {
    // A rollout's response is complete at its token_count line: judged there.
    return readAgentLog(path, 'codex', {
      listener,
      finalize: true,
      onEntry: (_entry, line, state) => {
        if (state.current && state.current.lastLine === line) judge(state, line, state.current.at);
      },
    });
  }
  if (isGeminiChat(path)) {
    return readGeminiChat(path, null, {
      finalize: true,
      listener: { ...listener, onResponseTokens: judge },
    }).cursor.state;
  }
  const readOptions: ReadOptions = {
    listener,
    finalize: true,
    onEntry: (entry, line, state) => {
      const current = state.current;
      if (entry.kind !== 'assistant' || !current || current.lastLine !== line) return;
      judge(state, line, entry.at);
    },
  };
  if (isCompressed(path)) return readCompressedTranscript(path, readOptions);
  return readTranscript(path, null, readOptions).cursor.state;
}
