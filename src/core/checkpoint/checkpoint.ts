/**
 * The checkpoint model (docs/specification.md, "The checkpoint model"): everything a fresh session needs to carry
 * on as if nothing happened, with the specified size limits enforced by truncation and checked by
 * validation.
 *
 * Over 450 lines on purpose: the model's types, its limits and its validation are one contract;
 * split, each half would restate the other's field list.
 * @module
 */
import type { AgentId } from '../agent-id.ts';
import type { CrashSignals } from '../context/signals.ts';
import { truncate } from '../truncate.ts';

export const CHECKPOINT_TRIGGERS = [
  'tool_call_interval',
  'time_interval',
  'danger_zone',
  'warning_zone',
  'risky_operation',
  'milestone',
  'user_requested',
  'session_start',
  'session_end',
  'pre_compact',
  /** `shim loop` ended an agent session at its context threshold to restart it fresh. */
  'loop_restart',
  /** Built from a dead session's transcript when the next session restored it. */
  'crash_recovery',
] as const;
export type CheckpointTrigger = (typeof CHECKPOINT_TRIGGERS)[number];

export type ConversationMessage = {
  role: 'user' | 'assistant';
  content: string;
  timestamp: string;
};

export type ConversationState = {
  /** High-level summary, at most 1000 characters. */
  summary: string;
  /** At most 50. */
  keyDecisions: string[];
  /** What is being worked on right now, at most 500 characters. */
  currentContext: string;
  recentMessages: ConversationMessage[];
  /**
   * Beyond the specification: every request of the user, oldest first — the first and the newest in full
   * (up to a limit), the ones between by their opening words. Requests inherited from the
   * sessions this one was restored from come first.
   */
  userRequests: string[];
  /** How many of the first `userRequests` were inherited from earlier sessions. */
  inheritedRequests?: number;
};

export type TaskState = {
  operation: string;
  phase: string;
  /** 0.0 – 1.0 */
  progress: number;
  completedSteps: string[];
  nextSteps: string[];
  blockers: string[];
  /** Beyond the specification: the exact task list (TodoWrite / TaskCreate) with statuses. */
  items: TaskStateItem[];
};

export type TaskStateItem = {
  id?: string;
  content: string;
  status: string;
  /** Open in an earlier session this one was restored from, and not seen done since. */
  inherited?: boolean;
};

/** Task statuses that count as finished work. */
const CLOSED_TASK_STATUSES = new Set(['completed', 'complete', 'done', 'deleted', 'cancelled']);

/** True when a task with this status still needs work. */
export function isOpenTaskStatus(status: string): boolean {
  return !CLOSED_TASK_STATUSES.has(status.trim().toLowerCase());
}

export type GitSnapshot = {
  /** The hidden ref holding the snapshot commit, e.g. refs/shim/snapshots/<checkpoint id>. */
  ref: string;
  commit: string;
  /** HEAD when the snapshot was taken (null in a repository without commits). */
  head: string | null;
  branch: string | null;
};

export type FileState = {
  activeFiles: string[];
  modifiedFiles: string[];
  stagedFiles: string[];
  /** At most 10 KB. */
  uncommittedDiff: string;
  /** Beyond the specification. */
  repoRoot: string | null;
  branch: string | null;
  head: string | null;
  snapshot: GitSnapshot | null;
};

export type ToolSession = {
  type: 'terminal' | 'chrome' | 'search' | 'other';
  id: string;
  purpose: string;
  startedAt: string;
  state: Record<string, unknown>;
};

export type PendingOp = {
  type: 'file_write' | 'process' | 'search' | 'other';
  id: string;
  description: string;
  startedAt: string;
  resumeWith: string;
  /** The session died while it ran: it did not finish. */
  interrupted?: boolean;
};

export type ToolCallRecord = {
  tool: string;
  /** At most 500 characters. */
  args: string;
  /** At most 500 characters. */
  result: string;
  success: boolean;
  latency: number;
  timestamp: string;
};

/** The last run of a test/build/lint/typecheck command and how it went. */
export type CheckResult = {
  kind: 'test' | 'build' | 'lint' | 'typecheck';
  command: string;
  /** `interrupted`: it was still running when the session stopped. */
  status: 'passing' | 'failing' | 'interrupted';
  at: string;
  /** The end of its output, for a failing run. */
  output?: string;
};

export type ToolState = {
  activeSessions: ToolSession[];
  pendingOperations: PendingOp[];
  /** The last 20. */
  recentToolCalls: ToolCallRecord[];
  /** Beyond the specification: the last run of each check command. */
  checks?: CheckResult[];
};

export type UserPreferences = {
  /** At most 2000 characters. */
  customInstructions?: string;
  recentPreferences?: string;
};

/** Where the checkpoint came from: enough to find the session again. */
export type CheckpointSource = {
  transcriptPath: string | null;
  /** The transcript line the checkpoint reflects (its state up to and including it). */
  transcriptLine: number;
  cwd: string | null;
  model: string | null;
  cliVersion: string | null;
  contextTokens: number;
  compactThreshold: number;
  level: string;
  reason: string | null;
  /** The previous checkpoint of this session, else the one it was restored from. */
  parentId?: string | null;
  /** The checkpoint of an earlier session that this session was restored from. */
  resumedFrom?: { sessionId: string; checkpointId: string } | null;
  /**
   * Parts that could not be processed (redacted, limited or validated) and were replaced whole
   * by a marked stand-in ({@link standInSection}); absent when the checkpoint is whole.
   */
  partial?: CheckpointSection[];
  /** The agent whose session this is; absent: Claude Code (and checkpoints from before agents). */
  agent?: AgentId;
};

export type Checkpoint = {
  id: string;
  sessionId: string;
  checkpointNumber: number;
  createdAt: string;
  triggeredBy: CheckpointTrigger;
  conversationState: ConversationState;
  taskState: TaskState;
  fileState: FileState;
  toolState: ToolState;
  signals: CrashSignals;
  userPreferences: UserPreferences;
  source: CheckpointSource;
};

/** The parts of a checkpoint that hold the session's content, each replaceable on its own. */
export const CHECKPOINT_SECTIONS = [
  'conversationState',
  'taskState',
  'fileState',
  'toolState',
  'userPreferences',
] as const;
export type CheckpointSection = (typeof CHECKPOINT_SECTIONS)[number];

/** What a stand-in says in place of the content it replaces. */
export const UNPROCESSABLE_TEXT =
  '[REDACTED:unprocessable] this part of the session could not be processed and was left out';

/**
 * A valid, content-free stand-in for `section` of `draft`: what a checkpoint keeps when that part
 * could not be redacted or limited. Facts that hold no session text (the git snapshot's ref,
 * the task progress) carry over.
 */
export function standInSection<K extends CheckpointSection>(
  draft: CheckpointDraft,
  section: K,
): CheckpointDraft[K] {
  const stand: { [S in CheckpointSection]: () => CheckpointDraft[S] } = {
    conversationState: () => ({
      summary: UNPROCESSABLE_TEXT,
      keyDecisions: [],
      currentContext: '',
      recentMessages: [],
      userRequests: [],
    }),
    taskState: () => ({
      operation: '',
      phase: '',
      progress: 0,
      completedSteps: [],
      nextSteps: [],
      blockers: [UNPROCESSABLE_TEXT],
      items: [],
    }),
    fileState: () => {
      const snapshot = draft.fileState?.snapshot;
      const safe =
        snapshot &&
        /^[0-9a-f]{7,64}$/.test(String(snapshot.commit)) &&
        /^refs\/shim\/[\w./-]+$/.test(String(snapshot.ref))
          ? {
              ref: snapshot.ref,
              commit: snapshot.commit,
              head: /^[0-9a-f]{7,64}$/.test(String(snapshot.head)) ? snapshot.head : null,
              branch: null,
            }
          : null;
      return {
        activeFiles: [],
        modifiedFiles: [],
        stagedFiles: [],
        uncommittedDiff: '',
        repoRoot: null,
        branch: null,
        head: null,
        snapshot: safe,
      };
    },
    toolState: () => ({ activeSessions: [], pendingOperations: [], recentToolCalls: [] }),
    userPreferences: () => ({}),
  };
  return stand[section]() as CheckpointDraft[K];
}

/** A checkpoint before the store has numbered it. */
export type CheckpointDraft = Omit<Checkpoint, 'checkpointNumber'>;

/** The specified limits, plus bounds on the lists the specification left open. */
export const CHECKPOINT_LIMITS = {
  summaryChars: 1000,
  keyDecisions: 50,
  decisionChars: 300,
  currentContextChars: 500,
  recentMessages: 10,
  messageChars: 1000,
  userRequests: 300,
  /** The first request and the newest few keep this much … */
  userRequestChars: 1500,
  /** … the ones between their opening words. */
  olderRequestChars: 300,
  fullRequests: 5,
  completedSteps: 100,
  nextSteps: 20,
  blockers: 10,
  stepChars: 300,
  taskItems: 100,
  files: 200,
  diffBytes: 10 * 1024,
  recentToolCalls: 20,
  toolTextChars: 500,
  pendingOperations: 50,
  activeSessions: 20,
  customInstructionsChars: 2000,
  recentPreferencesChars: 2000,
} as const;

const L = CHECKPOINT_LIMITS;

function limitList(items: readonly string[], max: number, chars: number): string[] {
  return items.slice(-max).map((s) => truncate(s, chars));
}

/**
 * Every request survives: past the count limit the second-oldest go (the first says what the
 * work is for); the first and the newest keep their text, the ones between their opening words.
 */
export function limitRequests(requests: readonly string[]): string[] {
  const kept =
    requests.length <= L.userRequests
      ? [...requests]
      : [requests[0]!, ...requests.slice(requests.length - (L.userRequests - 1))];
  const fullFrom = kept.length - L.fullRequests;
  return kept.map((r, i) =>
    truncate(r, i === 0 || i >= fullFrom ? L.userRequestChars : L.olderRequestChars),
  );
}

/** Cuts a string to at most `bytes` UTF-8 bytes (marker included), on a character boundary. */
export function truncateBytes(text: string, bytes: number): string {
  const encoded = new TextEncoder().encode(text);
  if (encoded.length <= bytes) return text;
  const marker = '\n… (truncated)';
  const budget = bytes - new TextEncoder().encode(marker).length;
  if (budget <= 0) return '';
  let end = budget;
  // Back up over UTF-8 continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(encoded.subarray(0, end)) + marker;
}

/** Returns a copy of `checkpoint` within every limit (the newest items win where lists are cut). */
export function applyCheckpointLimits<T extends CheckpointDraft>(checkpoint: T): T {
  const c = checkpoint;
  return {
    ...c,
    conversationState: {
      summary: truncate(c.conversationState.summary, L.summaryChars),
      keyDecisions: limitList(c.conversationState.keyDecisions, L.keyDecisions, L.decisionChars),
      currentContext: truncate(c.conversationState.currentContext, L.currentContextChars),
      recentMessages: c.conversationState.recentMessages
        .slice(-L.recentMessages)
        .map((m) => ({ ...m, content: truncate(m.content, L.messageChars) })),
      userRequests: limitRequests(c.conversationState.userRequests),
      ...(c.conversationState.inheritedRequests !== undefined
        ? {
            // Requests dropped past the limit go from index 1 on: inherited ones first.
            inheritedRequests: Math.min(
              c.conversationState.inheritedRequests,
              Math.max(
                Math.min(1, c.conversationState.inheritedRequests),
                c.conversationState.inheritedRequests -
                  Math.max(0, c.conversationState.userRequests.length - L.userRequests),
              ),
            ),
          }
        : {}),
    },
    taskState: {
      ...c.taskState,
      progress: Math.min(
        1,
        Math.max(0, Number.isFinite(c.taskState.progress) ? c.taskState.progress : 0),
      ),
      operation: truncate(c.taskState.operation, L.stepChars),
      phase: truncate(c.taskState.phase, 100),
      completedSteps: limitList(c.taskState.completedSteps, L.completedSteps, L.stepChars),
      nextSteps: c.taskState.nextSteps.slice(0, L.nextSteps).map((s) => truncate(s, L.stepChars)),
      blockers: limitList(c.taskState.blockers, L.blockers, L.stepChars),
      items: c.taskState.items
        .slice(0, L.taskItems)
        .map((i) => ({ ...i, content: truncate(i.content, L.stepChars) })),
    },
    fileState: {
      ...c.fileState,
      activeFiles: c.fileState.activeFiles.slice(-L.files),
      modifiedFiles: c.fileState.modifiedFiles.slice(0, L.files),
      stagedFiles: c.fileState.stagedFiles.slice(0, L.files),
      uncommittedDiff: truncateBytes(c.fileState.uncommittedDiff, L.diffBytes),
    },
    toolState: {
      activeSessions: c.toolState.activeSessions.slice(-L.activeSessions),
      pendingOperations: c.toolState.pendingOperations.slice(-L.pendingOperations),
      recentToolCalls: c.toolState.recentToolCalls.slice(-L.recentToolCalls).map((t) => ({
        ...t,
        args: truncate(t.args, L.toolTextChars),
        result: truncate(t.result, L.toolTextChars),
      })),
      ...(c.toolState.checks !== undefined ? { checks: c.toolState.checks.slice(-8) } : {}),
    },
    userPreferences: {
      ...(c.userPreferences.customInstructions !== undefined
        ? {
            customInstructions: truncate(
              c.userPreferences.customInstructions,
              L.customInstructionsChars,
            ),
          }
        : {}),
      ...(c.userPreferences.recentPreferences !== undefined
        ? {
            recentPreferences: truncate(
              c.userPreferences.recentPreferences,
              L.recentPreferencesChars,
            ),
          }
        : {}),
    },
  };
}

export type ValidationResult = { valid: boolean; errors: string[] };

/** The specified validation, extended to every limit above. */
export function validateCheckpoint(
  c: CheckpointDraft & { checkpointNumber?: number },
): ValidationResult {
  const errors: string[] = [];
  const check = (ok: boolean, message: string) => {
    if (!ok) errors.push(message);
  };
  check(c.id.length > 0, 'id is empty');
  check(c.sessionId.length > 0, 'sessionId is empty');
  const n = c.checkpointNumber;
  if (n !== undefined)
    check(Number.isInteger(n) && n >= 1, 'checkpointNumber must be a positive integer');
  check(!Number.isNaN(Date.parse(c.createdAt)), 'createdAt is not an ISO timestamp');
  check(
    (CHECKPOINT_TRIGGERS as readonly string[]).includes(c.triggeredBy),
    `unknown trigger ${c.triggeredBy}`,
  );
  check(
    c.conversationState.summary.length <= L.summaryChars,
    `summary exceeds ${L.summaryChars} chars`,
  );
  check(
    c.conversationState.keyDecisions.length <= L.keyDecisions,
    `too many key decisions (max ${L.keyDecisions})`,
  );
  check(
    c.conversationState.currentContext.length <= L.currentContextChars,
    `currentContext exceeds ${L.currentContextChars} chars`,
  );
  check(
    c.conversationState.recentMessages.every((m) => m.content.length <= L.messageChars),
    `a recent message exceeds ${L.messageChars} chars`,
  );
  check(
    c.taskState.completedSteps.length <= L.completedSteps,
    `too many completed steps (max ${L.completedSteps})`,
  );
  check(c.taskState.nextSteps.length <= L.nextSteps, `too many next steps (max ${L.nextSteps})`);
  check(c.taskState.blockers.length <= L.blockers, `too many blockers (max ${L.blockers})`);
  check(
    c.taskState.progress >= 0 && c.taskState.progress <= 1,
    'progress must be between 0.0 and 1.0',
  );
  check(
    new TextEncoder().encode(c.fileState.uncommittedDiff).length <= L.diffBytes,
    'uncommitted diff exceeds 10KB',
  );
  check(
    c.toolState.recentToolCalls.length <= L.recentToolCalls,
    `more than ${L.recentToolCalls} recent tool calls`,
  );
  check(
    c.toolState.recentToolCalls.every(
      (t) => t.args.length <= L.toolTextChars && t.result.length <= L.toolTextChars,
    ),
    `a tool call's args or result exceed ${L.toolTextChars} chars`,
  );
  check(
    (c.userPreferences.customInstructions ?? '').length <= L.customInstructionsChars,
    'customInstructions exceed 2000 chars',
  );
  return { valid: errors.length === 0, errors };
}
