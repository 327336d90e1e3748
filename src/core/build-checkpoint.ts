/**
 * Builds a checkpoint from the session model, its assessment and the working tree's git facts.
 * Pure: the caller reads files, runs git, redacts and stores.
 * @module
 */
import type { Assessment } from './assess.ts';
import {
  applyCheckpointLimits,
  type CheckpointDraft,
  type CheckpointSource,
  type CheckpointTrigger,
  type ConversationMessage,
  type GitSnapshot,
  type PendingOp,
  type TaskState,
  type ToolSession,
} from './checkpoint.ts';
import type { PendingToolCall, SessionState } from './session.ts';
import { truncate } from './truncate.ts';

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
  assessment: Assessment;
  git: GitFacts | null;
  transcriptPath: string | null;
  /** Project instructions (CLAUDE.md), if the caller found any. */
  customInstructions?: string | null;
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

const TEST_COMMAND =
  /\b(test|jest|vitest|pytest|mocha|go test|cargo test|npm t\b|rspec|phpunit)\b/i;

/** A coarse phase from what the agent did last. */
function getPhase(state: SessionState, items: TaskState['items']): string {
  const recent = state.recentTools.slice(-5);
  if (state.consecutiveToolFailures >= 3) return 'debugging';
  if (recent.some((t) => t.tool === 'Bash' && /git (commit|push)/.test(t.args)))
    return 'committing';
  if (recent.some((t) => t.tool === 'Bash' && TEST_COMMAND.test(t.args))) return 'testing';
  if (state.filesChanged.length > 0) return 'implementing';
  if (items.length > 0 || state.toolCalls > 0) return 'exploring';
  return 'starting';
}

function getBlockers(state: SessionState): string[] {
  const blockers: string[] = [];
  if (state.consecutiveToolFailures >= 2) {
    const failing = state.recentTools.slice(-state.consecutiveToolFailures);
    const last = failing[failing.length - 1];
    blockers.push(
      `${state.consecutiveToolFailures} tool calls failed in a row; last: ${last?.tool ?? 'tool'} ${truncate(oneLine(last?.args ?? ''), 120)} → ${truncate(oneLine(last?.result ?? ''), 200)}`,
    );
  }
  if (state.lastPromptTooLongLine !== null)
    blockers.push('the session hit "Prompt is too long" (context limit)');
  if (state.errorPatterns.includes('prompt_too_long (subagent)')) {
    blockers.push('a subagent failed with "Prompt is too long"; give it a narrower task');
  }
  return blockers;
}

function toPendingOp(p: PendingToolCall): PendingOp {
  const type: PendingOp['type'] = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(p.tool)
    ? 'file_write'
    : p.tool === 'Bash'
      ? 'process'
      : ['Grep', 'Glob', 'WebSearch', 'WebFetch'].includes(p.tool)
        ? 'search'
        : 'other';
  const resumeWith =
    type === 'file_write'
      ? `check whether the ${p.tool} landed (read the file) before repeating it`
      : type === 'process'
        ? 'check whether the command finished (its output or side effects) before re-running it'
        : `re-run ${p.tool} if its result is still needed`;
  return {
    type,
    id: p.id,
    description: `${p.tool} ${truncate(oneLine(p.args), 300)}`,
    startedAt: iso(p.at),
    resumeWith,
  };
}

function getActiveSessions(state: SessionState): ToolSession[] {
  return state.backgroundTasks
    .filter((t) => !t.done)
    .map((t) => ({
      type: t.kind === 'shell' ? 'terminal' : 'other',
      id: t.id,
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

function getSummary(input: BuildCheckpointInput, items: TaskState['items']): string {
  const { state, assessment: a, git } = input;
  const requests = state.prompts;
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
  parts.push(`Claude Code session ${where}`.trim() + '.');
  if (requests.length > 0) {
    parts.push(`First request: "${truncate(oneLine(requests[0]!.text), 220)}".`);
    if (requests.length > 1)
      parts.push(
        `Latest request: "${truncate(oneLine(requests[requests.length - 1]!.text), 220)}".`,
      );
  }
  if (items.length > 0) {
    const done = items.filter((i) => i.status === 'completed').length;
    const active = items.find((i) => i.status === 'in_progress');
    parts.push(
      `Tasks: ${done}/${items.length} done${active ? `, in progress: ${truncate(active.content, 100)}` : ''}.`,
    );
  }
  const changed = git?.modifiedFiles.length ?? state.filesChanged.length;
  if (changed > 0) parts.push(`${changed} file${changed === 1 ? '' : 's'} changed.`);
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
  const items = getTaskItems(state);
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
  };
  const lastPrompt = state.prompts[state.prompts.length - 1];
  const preferences = getPreferences(state);
  const draft: CheckpointDraft = {
    id: input.id,
    sessionId: input.sessionId,
    createdAt: input.createdAt,
    triggeredBy: input.trigger,
    conversationState: {
      summary: getSummary(input, items),
      keyDecisions: [...state.decisions],
      currentContext: getCurrentContext(state, items),
      recentMessages: getRecentMessages(state),
      userRequests: state.prompts.map((p) => p.text),
    },
    taskState: {
      operation: active?.content ?? (lastPrompt ? oneLine(lastPrompt.text) : ''),
      phase: getPhase(state, items),
      progress: items.length > 0 ? done.length / items.length : 0,
      completedSteps: done.map((i) => i.content),
      nextSteps: open.map((i) =>
        i.status === 'in_progress' ? `(in progress) ${i.content}` : i.content,
      ),
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
      pendingOperations: state.pendingTools.map(toPendingOp),
      recentToolCalls: state.recentTools.map((t) => ({
        tool: t.tool,
        args: t.args,
        result: t.result,
        success: t.success,
        latency: t.latencyMs ?? 0,
        timestamp: iso(t.at),
      })),
    },
    signals: assessment.signals,
    userPreferences: {
      ...(input.customInstructions ? { customInstructions: input.customInstructions } : {}),
      ...(preferences ? { recentPreferences: preferences } : {}),
    },
    source,
  };
  return applyCheckpointLimits(draft);
}
