/**
 * Resume detection (docs/specification.md, "Resume"): given what the store knows about the previous session, decide
 * whether its last checkpoint should be restored into the session that is starting now, why that
 * session stopped, and how sure we are.
 *
 * The rules, in the order they apply (the first that matches wins):
 *
 * | # | Evidence                                                    | Reason        | Resume | Confidence |
 * |---|-------------------------------------------------------------|---------------|--------|------------|
 * | 1 | no checkpoint                                                | `unknown`     | no     | 1.00       |
 * | 2 | the checkpoint was already restored (`restoredAt`)          | (classified)  | no     | 0.95       |
 * | 3 | the checkpoint is older than `maxAgeMs` (default 7 days)    | (classified)  | no     | 0.90       |
 * | 4 | a compaction after, no clean end, its agent not seen running | `compaction`  | yes    | 0.95       |
 * | 5 | the session hit "Prompt is too long" (clean end or not)     | `crash`       | yes    | 0.90       |
 * | 6 | a clean SessionEnd, tasks left open                         | `manual_exit` | yes    | 0.50 (`clear`: 0.35) |
 * | 7 | a clean SessionEnd, no open tasks                           | `manual_exit` | no     | 0.85       |
 * | 8 | no clean end, checkpoint at `danger` risk or ≥ 95% context  | `crash`       | yes    | 0.80       |
 * | 9 | no clean end, quiet for longer than `timeoutMs` (30 min)    | `timeout`     | yes    | 0.70       |
 * |10 | no clean end, recently active, low risk, tasks open         | `unknown`     | yes    | 0.45       |
 * |11 | no clean end, recently active, low risk, no open tasks      | `unknown`     | no     | 0.55       |
 *
 * Notes on the choices:
 * - A session whose agent process still runs is not taken over (rule 4 included): it carries on
 *   by itself, and a session started beside it is parallel work, not its continuation.
 * - "Prompt is too long" counts as a crash even when a SessionEnd follows: the user quitting a
 *   session that can no longer take a prompt is the crash's consequence, not a decision to stop.
 * - A compaction is the same session carrying on with its agent's lossy summary, so the exact
 *   state is re-injected. After a clean end the compaction no longer matters (rules 5–7 decide).
 * - A clean end means the user chose to stop: resuming is only worth offering when work was left
 *   open, and `/clear` (reason `clear`) is an explicit wish for a fresh context, hence lower still.
 * - Rule 10 covers a session killed without a hook (terminal closed) shortly before this one
 *   started, but also one still running in another terminal: hence the low confidence.
 * - Confidence is how sure the detector is of its whole verdict (resume or not, and the reason).
 *   A resume verdict loses up to 30% of it as the checkpoint ages towards `maxAgeMs`.
 *
 * Pure: no clock, no I/O; `now` comes in with the evidence.
 * @module
 */
import {
  isOpenTaskStatus,
  type Checkpoint,
  type CheckpointTrigger,
} from '../checkpoint/checkpoint.ts';
import type { CrashRisk } from '../context/risk.ts';
import { agentName, type AgentId } from '../agent-id.ts';

export type InterruptionReason =
  | 'crash'
  | 'timeout'
  | 'manual_exit'
  | 'compaction'
  | 'unknown'
  /** The user wrote a handoff (`shim handoff`) for the next session. */
  | 'handoff'
  /** The user cleared the context with shim's relay on (config `relay`): the state in full. */
  | 'relay'
  /** The previous turn ended on a usage or rate limit; shim wrote a handoff (limit-stop.ts). */
  | 'usage_limit';

/** What the detector needs to know about the previous session's last checkpoint. */
export type ResumeCheckpointInfo = {
  id: string;
  sessionId: string;
  /** The agent whose session it was: the verdict names it. */
  agent: AgentId;
  checkpointNumber: number;
  createdAt: string;
  triggeredBy: CheckpointTrigger;
  crashRisk: CrashRisk;
  /** Percent of the auto-compact threshold in use when the checkpoint was taken. */
  contextPercent: number;
  restoredAt: string | null;
  /** Task items not completed (nor deleted) at the checkpoint. */
  openTasks: number;
};

export type ResumeEvidence = {
  checkpoint: ResumeCheckpointInfo | null;
  /** A clean SessionEnd recorded for that session after the checkpoint, with its agent's reason. */
  sessionEnded: { at: string; reason: string } | null;
  /** A compaction happened in that session after the checkpoint was taken. */
  compactedAfter: boolean;
  /** Last transcript activity of that session (ISO timestamp). */
  lastActivityAt: string | null;
  /** The session hit "Prompt is too long". */
  promptTooLong: boolean;
  /** Whether the session's agent process is still running (null when unknown). */
  agentAlive?: boolean | null;
  /** Epoch ms. */
  now: number;
};

export type ResumeDetection = {
  shouldResume: boolean;
  lastCheckpointId: string | null;
  interruptionReason: InterruptionReason;
  /** ms from the interruption (clean end, else last activity, else the checkpoint) to `now`. */
  timeSinceInterruption: number;
  /** 0–1: how sure the detector is of this verdict. */
  confidence: number;
  /** One sentence. */
  explanation: string;
  /** Work from another machine or teammate, through the team store (docs/team.md). */
  from?: { osUser: string; machine: string };
};

export type ResumeOptions = {
  /** Quiet time after which a session without a clean end counts as timed out. */
  timeoutMs?: number;
  /** Checkpoints older than this are not resumed. */
  maxAgeMs?: number;
};

export const DEFAULT_RESUME_TIMEOUT_MS = 30 * 60_000;
export const DEFAULT_RESUME_MAX_AGE_MS = 7 * 24 * 3_600_000;
/** Context percent (of the auto-compact threshold) from which a silent stop counts as a crash. */
export const CRASH_CONTEXT_PERCENT = 95;

/** Percent of the auto-compact threshold in use at the checkpoint, one decimal. */
export function getCheckpointContextPercent(checkpoint: Checkpoint): number {
  const { contextTokens, compactThreshold } = checkpoint.source;
  if (compactThreshold > 0) return Math.round((contextTokens / compactThreshold) * 1000) / 10;
  return Math.round(checkpoint.signals.compactThresholdUsage * 1000) / 10;
}

/** The detector's view of a stored checkpoint. */
export function toResumeCheckpointInfo(
  checkpoint: Checkpoint,
  restoredAt: string | null,
): ResumeCheckpointInfo {
  return {
    id: checkpoint.id,
    sessionId: checkpoint.sessionId,
    agent: checkpoint.source.agent,
    checkpointNumber: checkpoint.checkpointNumber,
    createdAt: checkpoint.createdAt,
    triggeredBy: checkpoint.triggeredBy,
    crashRisk: checkpoint.signals.crashRisk,
    contextPercent: getCheckpointContextPercent(checkpoint),
    restoredAt,
    openTasks: checkpoint.taskState.items.filter((i) => isOpenTaskStatus(i.status)).length,
  };
}

function parseTime(iso: string | null | undefined): number | null {
  if (iso == null) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

/** "4 minutes", "2 hours", "3 days": coarse, for explanations. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (s < 60) return unit(s, 'second');
  const m = Math.round(s / 60);
  if (m < 60) return unit(m, 'minute');
  const h = Math.round(m / 60);
  if (h < 48) return unit(h, 'hour');
  return unit(Math.round(h / 24), 'day');
}

function round2(n: number): number {
  return Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;
}

type Verdict = {
  reason: InterruptionReason;
  resume: boolean;
  confidence: number;
  /** Why, completing "…, so" or standing alone (see `detectResume`). */
  why: string;
};

function classify(
  evidence: ResumeEvidence,
  checkpoint: ResumeCheckpointInfo,
  quietMs: number,
  timeoutMs: number,
): Verdict {
  const ended = evidence.sessionEnded;
  const open = checkpoint.openTasks;
  const openText = `${open} task${open === 1 ? '' : 's'} still open`;
  const agent = agentName(checkpoint.agent);
  const cp = `checkpoint #${checkpoint.checkpointNumber}`;

  const stillRunning = {
    reason: 'unknown',
    resume: false,
    confidence: 0.9,
    why: `The session's ${agent} process is still running, so ${cp} is not taken over`,
  } as const;
  // Still running after it compacted, the session carries on by itself (its own restore after
  // the compaction): one started beside it is parallel work, not its continuation.
  if (evidence.compactedAfter && ended === null && evidence.agentAlive === true)
    return stillRunning;
  if (evidence.compactedAfter && ended === null) {
    return {
      reason: 'compaction',
      resume: true,
      confidence: 0.95,
      why: `${agent} compacted the session after ${cp}, so its exact state is restored on top of the lossy summary`,
    };
  }
  if (evidence.promptTooLong) {
    return {
      reason: 'crash',
      resume: true,
      confidence: 0.9,
      why: `The session hit "Prompt is too long"${ended ? ` and was then closed (${ended.reason})` : ' and never ended cleanly'}, so it is resumed from ${cp}`,
    };
  }
  if (ended !== null) {
    if (open > 0) {
      return {
        reason: 'manual_exit',
        resume: true,
        confidence: ended.reason === 'clear' ? 0.35 : 0.5,
        why: `The user ended the session (${ended.reason}) with ${openText}, so ${cp} is offered with low confidence`,
      };
    }
    return {
      reason: 'manual_exit',
      resume: false,
      confidence: 0.85,
      why: `The user ended the session (${ended.reason}) with no open tasks, so there is nothing to resume`,
    };
  }
  if (evidence.agentAlive === true) return stillRunning;
  if (evidence.agentAlive === false) {
    return {
      reason: 'crash',
      resume: true,
      confidence: 0.85,
      why: `The session's ${agent} process is gone and it never ended cleanly, so it was killed or crashed and is resumed from ${cp}`,
    };
  }
  if (checkpoint.crashRisk === 'danger' || checkpoint.contextPercent >= CRASH_CONTEXT_PERCENT) {
    return {
      reason: 'crash',
      resume: true,
      confidence: 0.8,
      why: `The session never ended cleanly and was at ${checkpoint.contextPercent}% of its context (${checkpoint.crashRisk} risk) at ${cp}, so it most likely crashed and is resumed`,
    };
  }
  if (quietMs > timeoutMs) {
    return {
      reason: 'timeout',
      resume: true,
      confidence: 0.7,
      why: `The session never ended cleanly and has been quiet for ${formatDuration(quietMs)} (more than ${formatDuration(timeoutMs)}), so it timed out and is resumed from ${cp}`,
    };
  }
  if (open > 0) {
    return {
      reason: 'unknown',
      resume: true,
      confidence: 0.45,
      why: `The session never ended cleanly but was active ${formatDuration(quietMs)} ago at ${checkpoint.crashRisk} risk (it may still be running), with ${openText}, so ${cp} is resumed with low confidence`,
    };
  }
  return {
    reason: 'unknown',
    resume: false,
    confidence: 0.55,
    why: `The session never ended cleanly but was active ${formatDuration(quietMs)} ago at ${checkpoint.crashRisk} risk (it may still be running) and no tasks are open, so it is not resumed`,
  };
}

/** Applies the rules in the module comment. */
export function detectResume(evidence: ResumeEvidence, options?: ResumeOptions): ResumeDetection {
  const timeoutMs = options?.timeoutMs ?? DEFAULT_RESUME_TIMEOUT_MS;
  const maxAgeMs = options?.maxAgeMs ?? DEFAULT_RESUME_MAX_AGE_MS;
  const { checkpoint, now } = evidence;

  if (checkpoint === null) {
    const last = parseTime(evidence.sessionEnded?.at) ?? parseTime(evidence.lastActivityAt);
    return {
      shouldResume: false,
      lastCheckpointId: null,
      interruptionReason: 'unknown',
      timeSinceInterruption: last === null ? 0 : Math.max(0, now - last),
      confidence: 1,
      explanation:
        'No checkpoint was recorded for the previous session, so there is nothing to resume.',
    };
  }

  const createdAt = parseTime(checkpoint.createdAt);
  const activityAt = parseTime(evidence.lastActivityAt);
  // A checkpoint rebuilt from the log after the session stopped (crash_recovery) was made later
  // than anything the session did: the log's own last activity says when it stopped.
  const rebuilt = checkpoint.triggeredBy === 'crash_recovery' && activityAt !== null;
  const lastActivity = Math.max(
    rebuilt ? -Infinity : (createdAt ?? -Infinity),
    activityAt ?? -Infinity,
  );
  const endedAt = parseTime(evidence.sessionEnded?.at);
  const interruptedAt = endedAt ?? (Number.isFinite(lastActivity) ? lastActivity : null);
  const timeSinceInterruption = interruptedAt === null ? 0 : Math.max(0, now - interruptedAt);
  const quietMs = Number.isFinite(lastActivity) ? Math.max(0, now - lastActivity) : 0;
  const ageMs = createdAt === null ? 0 : Math.max(0, now - createdAt);

  const verdict = classify(evidence, checkpoint, quietMs, timeoutMs);
  const base = {
    lastCheckpointId: checkpoint.id,
    interruptionReason: verdict.reason,
    timeSinceInterruption,
  };
  const cp = `Checkpoint #${checkpoint.checkpointNumber}`;

  if (checkpoint.restoredAt !== null) {
    return {
      ...base,
      shouldResume: false,
      confidence: 0.95,
      explanation: `${cp} was already restored at ${checkpoint.restoredAt}, so it is not restored again.`,
    };
  }
  if (ageMs > maxAgeMs) {
    return {
      ...base,
      shouldResume: false,
      confidence: 0.9,
      explanation: `${cp} is ${formatDuration(ageMs)} old (limit ${formatDuration(maxAgeMs)}), too old to resume safely.`,
    };
  }
  const decay = verdict.resume && maxAgeMs > 0 ? 1 - 0.3 * Math.min(1, ageMs / maxAgeMs) : 1;
  return {
    ...base,
    shouldResume: verdict.resume,
    confidence: round2(verdict.confidence * decay),
    explanation: `${verdict.why}.`,
  };
}

/** The reasons a detection can give, for reading one back from the store. */
const REASONS: readonly InterruptionReason[] = [
  'crash',
  'timeout',
  'manual_exit',
  'compaction',
  'unknown',
  'handoff',
  'relay',
  'usage_limit',
];

export function isInterruptionReason(value: string): value is InterruptionReason {
  return (REASONS as readonly string[]).includes(value);
}

/**
 * A compaction's restore: the same session carries on with the agent's lossy summary, so there
 * is nothing to guess (`explanation` says which agent compacted and how its state is kept).
 */
export function compactionDetection(checkpointId: string, explanation: string): ResumeDetection {
  return {
    shouldResume: true,
    lastCheckpointId: checkpointId,
    interruptionReason: 'compaction',
    timeSinceInterruption: 0,
    confidence: 1,
    explanation,
  };
}
