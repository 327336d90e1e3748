/**
 * The checkpoint model (docs/specification.md, "The checkpoint model"): everything a fresh session needs to carry
 * on as if nothing happened. Its size limits, enforced by truncation and checked by validation,
 * are in checkpoint-limits.ts.
 * @module
 */
import type { AgentId } from '../agent-id.ts';
import type { CrashSignals } from '../context/signals.ts';
import type { ToolKind } from '../session.ts';

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
   * Beyond the specification: every request of the user, oldest first, whole up to 1,500
   * characters (a longer one by its head and tail, the cut said: checkpoint-limits.ts). Requests
   * inherited from the sessions this one was restored from come first.
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
  /** A shell command's line, verbatim (redacted): what re-runs it. */
  command?: string;
  startedAt: string;
  resumeWith: string;
  /** The session died while it ran: it did not finish. */
  interrupted?: boolean;
};

export type ToolCallRecord = {
  tool: string;
  /** What it acted on, in a few words (the file, the command, the pattern); absent in old checkpoints. */
  target?: string;
  /** What kind of call it is (a shell command, a file write…), as its agent's fold said. */
  kind?: ToolKind;
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

/** A shell command of the session, verbatim (redacted), and how it ended. */
export type CommandRun = {
  command: string;
  /** `running`: no result when the checkpoint was taken; `interrupted`: it died with the session. */
  status: 'ok' | 'failed' | 'stopped' | 'running' | 'interrupted';
  exitCode: number | null;
  at: string;
};

/** The newest tool result marked as an error: what failed, on what, and what it said. */
export type ToolFailure = {
  tool: string;
  /** The command verbatim, else the file or pattern it acted on. */
  input: string;
  exitCode: number | null;
  /** The start of its output. */
  output: string;
  at: string;
  /** Tool calls that finished after it (0: it is the newest). */
  callsSince: number;
};

export type ToolState = {
  activeSessions: ToolSession[];
  pendingOperations: PendingOp[];
  /** The last 20. */
  recentToolCalls: ToolCallRecord[];
  /** Beyond the specification: the last run of each check command. */
  checks?: CheckResult[];
  /** Beyond the specification: the last distinct shell commands, newest last ("where you were"). */
  commands?: CommandRun[];
  /** Beyond the specification: the newest failed tool call. */
  lastFailure?: ToolFailure | null;
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
  /** The agent whose session this is (stored rows from before agents were recorded are Claude Code's: migration 10). */
  agent: AgentId;
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
