/**
 * The project's own state file (seed 004's data model, `checkpoint-state.json`): what a team that
 * keeps state in its repository reads of the session working there — level, trend, tokens per
 * minute, time to L2, the linked issue, the last checkpoint, the modified files. Pure: the app
 * writes it (app/project-files.ts), only when the user turned it on (docs/project-files.md).
 * @module
 */
import type { Assessment } from '../context/assess.ts';
import type { LevelThresholds } from '../context/level.ts';
import type { Checkpoint } from './checkpoint.ts';

export const PROJECT_STATE_VERSION = '1.0.0';

export type ContextTrend = 'increasing' | 'steady' | 'decreasing' | 'unknown';

export type ProjectState = {
  version: string;
  sessionId: string;
  /** The agent whose session it is (every agent writes the same file). */
  agent: string;
  startedAt: string | null;
  updatedAt: string;
  currentLevel: string;
  /** Percent of the compaction threshold. */
  contextPercent: number;
  contextTrend: ContextTrend;
  tokensPerMinute: number | null;
  /** "15m"; "now" at or past L2; null while there is no growth to go by. */
  estimatedTimeToL2: string | null;
  linkedIssue: string | null;
  lastCheckpoint: {
    id: string;
    timestamp: string;
    trigger: string;
    reason: string | null;
    /** The project handoff written for it, relative to the project (null: none). */
    handoffFile: string | null;
  };
  uncommittedChanges: boolean;
  modifiedFiles: string[];
};

/** Growth under this many tokens a minute, either way, reads as steady. */
const STEADY_TOKENS_PER_MINUTE = 50;

function trendOf(tokensPerMinute: number | null): ContextTrend {
  if (tokensPerMinute === null) return 'unknown';
  if (tokensPerMinute > STEADY_TOKENS_PER_MINUTE) return 'increasing';
  if (tokensPerMinute < -STEADY_TOKENS_PER_MINUTE) return 'decreasing';
  return 'steady';
}

/** Minutes until the context reaches L2 at the current pace, as "15m" / "2h5m" / "now". */
export function timeToLevel(
  assessment: Pick<Assessment, 'contextTokens' | 'compactThreshold'>,
  levelPercent: number,
  tokensPerMinute: number | null,
): string | null {
  const target = (assessment.compactThreshold * levelPercent) / 100;
  const left = target - assessment.contextTokens;
  if (left <= 0) return 'now';
  if (tokensPerMinute === null || tokensPerMinute <= 0) return null;
  const minutes = Math.ceil(left / tokensPerMinute);
  return minutes < 60 ? `${minutes}m` : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

export function projectStateOf(input: {
  checkpoint: Checkpoint;
  assessment: Assessment;
  levels: LevelThresholds;
  agent: string;
  startedAt: string | null;
  linkedIssue: string | null;
  handoffFile: string | null;
}): ProjectState {
  const { checkpoint, assessment } = input;
  const growth = assessment.forecast.growthPerMinute;
  const tokensPerMinute = growth === null ? null : Math.round(growth);
  const files = checkpoint.fileState;
  const modifiedFiles = [...new Set([...files.modifiedFiles, ...files.stagedFiles])];
  return {
    version: PROJECT_STATE_VERSION,
    sessionId: checkpoint.sessionId,
    agent: input.agent,
    startedAt: input.startedAt,
    updatedAt: checkpoint.createdAt,
    currentLevel: assessment.level,
    contextPercent: Math.round(assessment.percent),
    contextTrend: trendOf(tokensPerMinute),
    tokensPerMinute,
    estimatedTimeToL2: timeToLevel(assessment, input.levels.L2, tokensPerMinute),
    linkedIssue: input.linkedIssue,
    lastCheckpoint: {
      id: checkpoint.id,
      timestamp: checkpoint.createdAt,
      trigger: checkpoint.triggeredBy,
      reason: checkpoint.source.reason,
      handoffFile: input.handoffFile,
    },
    uncommittedChanges: modifiedFiles.length > 0 || files.uncommittedDiff.length > 0,
    modifiedFiles,
  };
}

/** `YYYY-MM-DD-HHMM` in UTC (one clock for a team spread over time zones). */
export function handoffStamp(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}`;
}
