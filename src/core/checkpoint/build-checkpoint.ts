/**
 * Builds a checkpoint from the session model, its assessment and the working tree's git facts.
 * Pure: the caller reads files, runs git, redacts and stores.
 * @module
 */
import type { AgentId } from '../agent-id.ts';
import { getPhase, readCommand } from './session-phase.ts';
import type { Assessment } from '../context/assess.ts';
import { applyCheckpointLimits } from './checkpoint-limits.ts';
import {
  type Checkpoint,
  type CheckpointDraft,
  type CheckpointSource,
  type CheckpointTrigger,
  type CheckResult,
  type CommandRun,
  type ConversationMessage,
  type GitSnapshot,
  type PendingOp,
  type TaskState,
  type ToolFailure,
  type ToolSession,
} from './checkpoint.ts';
import { classifyCheckCommand } from './check-command.ts';
import { inheritFromAncestor } from './lineage.ts';
import type { PendingToolCall, SessionState, ToolKind } from '../session.ts';
import { truncate } from '../truncate.ts';

/** What git said about the working tree (captured by src/capture/git.ts). */
export type GitFacts = {
  /** Absolute path of the working tree's top level, or null outside a repository. */
  repoRoot: string | null;
  /** Short branch name; null when HEAD is detached or outside a repository. */
  branch: string | null;
  /** The HEAD commit; null in a repository without commits. */
  head: string | null;
  /** Changed in the working tree relative to the index, and unmerged paths. Repo-relative. */
  modifiedFiles: string[];
  /** Changed in the index relative to HEAD (renames and copies by their new path). */
  stagedFiles: string[];
  /** Untracked, not ignored. */
  untrackedFiles: string[];
  /** `git diff HEAD` (staged + unstaged), at most 10 KB of UTF-8. */
  uncommittedDiff: string;
  snapshot: GitSnapshot | null;
};

export type BuildCheckpointInput = {
  id: string;
  sessionId: string;
  createdAt: string;
  trigger: CheckpointTrigger;
  reason: string | null;
  state: SessionState;
  /** The agent whose session it is (its agent value carries both). */
  agent: { id: AgentId; name: string };
  assessment: Assessment;
  git: GitFacts | null;
  transcriptPath: string | null;
  /** Project instructions (the agent's instruction file), if the caller found any. */
  customInstructions?: string | null;
  /**
   * The session is dead (built from its transcript after a crash): the tool calls without a
   * result were interrupted, not still running.
   */
  interrupted?: boolean;
  /** The previous checkpoint of this session, else the one it was restored from. */
  parentId?: string | null;
  /** The earlier session's checkpoint this session was restored from: its open work is inherited. */
  ancestor?: Checkpoint | null;
};

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The task list as Claude Code last showed it: TaskCreate/TaskUpdate items, else TodoWrite. */
function getTaskItems(state: SessionState): TaskState['items'] {
  if (state.tasks.length > 0) {
    return state.tasks
      .filter((t) => t.status !== 'deleted')
      .map((t) => ({
        id: t.id,
        content: t.subject || t.description || `task ${t.id}`,
        status: t.status,
      }));
  }
  return state.todos.map((t) => ({ content: t.content, status: t.status }));
}

/** A coarse phase from what the agent did last. */

/** A call by its tool and what it acted on ("Bash npm test"), never its raw input. */
function callLabel(call: { tool: string; target?: string } | undefined): string {
  if (call === undefined) return 'tool';
  const target = oneLine(call.target ?? '');
  return target === '' ? call.tool : `${call.tool} ${truncate(target, 120)}`;
}

function getBlockers(state: SessionState): string[] {
  const blockers: string[] = [];
  if (state.consecutiveToolFailures >= 2) {
    const failing = state.recentTools.slice(-state.consecutiveToolFailures);
    const last = failing[failing.length - 1];
    blockers.push(
      `${state.consecutiveToolFailures} tool calls failed in a row; last: ${callLabel(last)} → ${truncate(oneLine(last?.result ?? ''), 200)}`,
    );
  }
  if (state.lastPromptTooLongLine !== null)
    blockers.push('the session hit "Prompt is too long" (context limit)');
  if (state.errorPatterns.includes('prompt_too_long (subagent)')) {
    blockers.push('a subagent failed with "Prompt is too long"; give it a narrower task');
  }
  return blockers;
}

const PENDING_TYPES: Record<ToolKind, PendingOp['type']> = {
  shell: 'process',
  file_write: 'file_write',
  search: 'search',
  task_list: 'other',
  other: 'other',
};

/** What kind of call a pending one is: its fold said so (older cached states: none). */
function kindOf(p: PendingToolCall): ToolKind {
  return p.kind ?? (p.meta?.command !== undefined ? 'shell' : 'other');
}

function toPendingOp(p: PendingToolCall, interrupted: boolean): PendingOp {
  const type = PENDING_TYPES[kindOf(p)];
  const command = type === 'process' ? (p.meta?.command ?? readCommand(p.args)) : '';
  const resumeWith =
    type === 'file_write'
      ? `check whether the ${p.tool} landed (read the file) before repeating it`
      : type === 'process'
        ? interrupted && command !== ''
          ? 'it was killed with the session before it finished: check its side effects, then run it again'
          : 'check whether the command finished (its output or side effects) before re-running it'
        : `re-run ${p.tool} if its result is still needed`;
  return {
    type,
    id: p.id,
    description: command !== '' ? `${p.tool} \`${truncate(oneLine(command), 300)}\`` : callLabel(p),
    ...(command !== '' ? { command } : {}),
    startedAt: iso(p.at),
    resumeWith,
    ...(interrupted ? { interrupted: true } : {}),
  };
}

/**
 * The pending calls a restore must check: a call that sets the task list is left out, its list
 * is the task list itself (the restore would otherwise show its stale statuses as pending work).
 */
function getPendingOps(state: SessionState, interrupted: boolean): PendingOp[] {
  return state.pendingTools
    .filter((p) => kindOf(p) !== 'task_list')
    .map((p) => toPendingOp(p, interrupted));
}

/** The last distinct commands; one still running when the session died is `interrupted`. */
function getCommands(state: SessionState, interrupted: boolean): CommandRun[] {
  return state.commands.map((c) => ({
    command: c.command,
    status: c.status === 'running' && interrupted ? 'interrupted' : c.status,
    exitCode: c.exitCode,
    at: iso(c.at),
  }));
}

function getLastFailure(state: SessionState): ToolFailure | null {
  const f = state.lastFailure;
  if (f === null) return null;
  return {
    tool: f.tool,
    input: f.target,
    exitCode: f.exitCode,
    output: f.output,
    at: iso(f.at),
    callsSince: Math.max(0, state.toolCalls - f.call),
  };
}

/** The last run of each check; one still running when the session died is `interrupted`. */
function getChecks(state: SessionState, interrupted: boolean): CheckResult[] {
  const checks: CheckResult[] = state.checks.map((c) => ({
    kind: c.kind,
    command: c.command,
    status: c.success ? 'passing' : 'failing',
    at: iso(c.at),
    ...(c.success || c.output === '' ? {} : { output: c.output }),
  }));
  if (!interrupted) return checks;
  for (const p of state.pendingTools) {
    const command = kindOf(p) === 'shell' ? (p.meta?.command ?? readCommand(p.args)) : '';
    const kind = command === '' ? null : classifyCheckCommand(command);
    if (kind === null) continue;
    const i = checks.findIndex((c) => c.kind === kind);
    if (i >= 0) checks.splice(i, 1);
    checks.push({ kind, command: truncate(command, 200), status: 'interrupted', at: iso(p.at) });
  }
  return checks;
}

/** Every request, oldest first: by its opening words, in full where the state still has it. */
function getRequests(state: SessionState): string[] {
  const full = new Map<number, string>();
  for (const p of state.prompts) full.set(p.line, p.text);
  if (state.firstPrompt) full.set(state.firstPrompt.line, state.firstPrompt.text);
  if (state.requestLog.length === 0) return state.prompts.map((p) => p.text);
  return state.requestLog.map((r) => full.get(r.line) ?? r.text);
}

function getActiveSessions(state: SessionState): ToolSession[] {
  return state.backgroundTasks
    .filter((t) => !t.done)
    .map((t) => ({
      type: t.kind === 'shell' ? 'terminal' : 'other',
      // The agent's own id of the job (the one its tools take), else the call that started it.
      id: t.handle ?? t.id,
      purpose:
        t.kind === 'shell' ? `background shell: ${t.description}` : `subagent: ${t.description}`,
      startedAt: iso(t.startedAt),
      state: { kind: t.kind, line: t.line },
    }));
}

function getRecentMessages(state: SessionState): ConversationMessage[] {
  const merged = [
    ...state.prompts.map((p) => ({
      line: p.line,
      role: 'user' as const,
      content: p.text,
      at: p.at,
    })),
    ...state.assistantTexts.map((t) => ({
      line: t.line,
      role: 'assistant' as const,
      content: t.text,
      at: t.at,
    })),
  ].sort((a, b) => a.line - b.line);
  return merged.slice(-10).map((m) => ({ role: m.role, content: m.content, timestamp: iso(m.at) }));
}

/** User statements that read as standing instructions ("always…", "don't…", "use X"). */
function getPreferences(state: SessionState): string | undefined {
  const found: string[] = [];
  for (const p of state.prompts) {
    for (const sentence of p.text.split(/(?<=[.!?])\s+|\n+/)) {
      const s = sentence.trim();
      if (
        s.length >= 10 &&
        s.length <= 300 &&
        /^(always|never|don't|do not|please (use|don't|do not|keep|avoid)|prefer|make sure|avoid)\b/i.test(
          s,
        )
      ) {
        found.push(s);
      }
    }
  }
  return found.length ? [...new Set(found)].slice(-10).join('\n') : undefined;
}

function getSummary(
  input: BuildCheckpointInput,
  items: TaskState['items'],
  requests: readonly string[],
): string {
  const { state, assessment: a, git, agent } = input;
  const parts: string[] = [];
  const where = [
    state.cwd ? `in ${state.cwd}` : null,
    git?.branch
      ? `on branch ${git.branch}`
      : state.gitBranch
        ? `on branch ${state.gitBranch}`
        : null,
  ]
    .filter(Boolean)
    .join(' ');
  parts.push(`${agent.name} session ${where}`.trim() + '.');
  if (requests.length > 0) {
    parts.push(`First request: "${truncate(oneLine(requests[0]!), 220)}".`);
    if (requests.length > 1)
      parts.push(`Latest request: "${truncate(oneLine(requests[requests.length - 1]!), 220)}".`);
  }
  if (items.length > 0) {
    const done = items.filter((i) => i.status === 'completed').length;
    const active = items.find((i) => i.status === 'in_progress');
    parts.push(
      `Tasks: ${done}/${items.length} done${active ? `, in progress: ${truncate(active.content, 100)}` : ''}.`,
    );
  }
  // The same count as the Files section: modified and new files, not committed.
  const changed = git?.repoRoot
    ? git.modifiedFiles.length + git.untrackedFiles.length
    : state.filesChanged.length;
  if (changed > 0) parts.push(`${changed} file${changed === 1 ? '' : 's'} changed, not committed.`);
  parts.push(
    `Context ${a.percent}% of the auto-compact threshold (${a.level})${state.compactionCount > 0 ? `, ${state.compactionCount} compaction${state.compactionCount === 1 ? '' : 's'} so far` : ''}.`,
  );
  return parts.join(' ');
}

function getCurrentContext(state: SessionState, items: TaskState['items']): string {
  const active = items.find((i) => i.status === 'in_progress');
  if (active) return `Working on: ${active.content}`;
  const lastText = state.assistantTexts[state.assistantTexts.length - 1];
  const lastPrompt = state.prompts[state.prompts.length - 1];
  if (lastText && (!lastPrompt || lastText.line > lastPrompt.line)) return oneLine(lastText.text);
  return lastPrompt ? `Asked: ${oneLine(lastPrompt.text)}` : '';
}

export function buildCheckpoint(input: BuildCheckpointInput): CheckpointDraft {
  const { state, assessment, git } = input;
  const interrupted = input.interrupted === true;
  const items = getTaskItems(state);
  const requests = getRequests(state);
  const done = items.filter((i) => i.status === 'completed');
  const open = items.filter((i) => i.status !== 'completed');
  const active = items.find((i) => i.status === 'in_progress');
  const source: CheckpointSource = {
    transcriptPath: input.transcriptPath,
    transcriptLine: state.parse.lines,
    cwd: state.cwd,
    model: state.model,
    cliVersion: state.cliVersion,
    contextTokens: assessment.contextTokens,
    compactThreshold: assessment.compactThreshold,
    level: assessment.level,
    reason: input.reason,
    parentId: input.parentId ?? null,
    resumedFrom: input.ancestor
      ? { sessionId: input.ancestor.sessionId, checkpointId: input.ancestor.id }
      : null,
    agent: input.agent.id,
  };
  const lastPrompt = state.prompts[state.prompts.length - 1];
  const preferences = getPreferences(state);
  const draft: CheckpointDraft = {
    id: input.id,
    sessionId: input.sessionId,
    createdAt: input.createdAt,
    triggeredBy: input.trigger,
    conversationState: {
      summary: getSummary(
        input,
        items,
        input.ancestor ? [...input.ancestor.conversationState.userRequests, ...requests] : requests,
      ),
      keyDecisions: [...state.decisions],
      currentContext: getCurrentContext(state, items),
      recentMessages: getRecentMessages(state),
      userRequests: requests,
    },
    taskState: {
      operation: active?.content ?? (lastPrompt ? oneLine(lastPrompt.text) : ''),
      phase: getPhase(state, items),
      progress: items.length > 0 ? done.length / items.length : 0,
      completedSteps: done.map((i) => i.content),
      // What is under way comes before what has not started.
      nextSteps: [
        ...open.filter((i) => i.status === 'in_progress').map((i) => `(in progress) ${i.content}`),
        ...open.filter((i) => i.status !== 'in_progress').map((i) => i.content),
      ],
      blockers: getBlockers(state),
      items,
    },
    fileState: {
      activeFiles: [...state.filesTouched],
      modifiedFiles: git?.repoRoot
        ? [...git.modifiedFiles, ...git.untrackedFiles.map((f) => `${f} (new)`)]
        : [...state.filesChanged],
      stagedFiles: git?.stagedFiles ?? [],
      uncommittedDiff: git?.uncommittedDiff ?? '',
      repoRoot: git?.repoRoot ?? null,
      branch: git?.branch ?? state.gitBranch,
      head: git?.head ?? null,
      snapshot: git?.snapshot ?? null,
    },
    toolState: {
      activeSessions: getActiveSessions(state),
      pendingOperations: getPendingOps(state, interrupted),
      recentToolCalls: state.recentTools.map((t) => ({
        tool: t.tool,
        ...(t.target !== undefined ? { target: t.target } : {}),
        ...(t.kind !== undefined ? { kind: t.kind } : {}),
        args: t.args,
        result: t.result,
        success: t.success,
        latency: t.latencyMs ?? 0,
        timestamp: iso(t.at),
      })),
      checks: getChecks(state, interrupted),
      commands: getCommands(state, interrupted),
      lastFailure: getLastFailure(state),
    },
    signals: assessment.signals,
    userPreferences: {
      ...(input.customInstructions ? { customInstructions: input.customInstructions } : {}),
      ...(preferences ? { recentPreferences: preferences } : {}),
    },
    source,
  };
  return applyCheckpointLimits(input.ancestor ? inheritFromAncestor(draft, input.ancestor) : draft);
}
