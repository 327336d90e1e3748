/**
 * Folds transcript entries, in file order, into the session model.
 *
 * The state is mutated in place: this runs per line on every hook call and on cold parses of
 * tens of megabytes, and the state is owned by one reader at a time.
 *
 * One fold per entry type; what the task tools say is folded in fold-tasks.ts, tool inputs are
 * summarised by tool-input-summary.ts.
 * @module
 */
import {
  LIMITS,
  pushBounded,
  touchBounded,
  type CompactionRecord,
  type PendingToolCall,
  type SessionState,
  type ToolKind,
} from '../../core/session.ts';
import { clip } from '../../core/truncate.ts';
import {
  finalizeResponse,
  foldAssistantText,
  foldCheck,
  foldCommandCall,
  foldPrompt,
  foldToolOutcome,
  noteError,
  startedInBackground,
} from '../../transcript/fold-parts.ts';
import { foldTaskNotification } from './fold-background.ts';
import { applyTaskResult, foldTaskResult, readToolMeta, readTodos } from './fold-tasks.ts';
import { keptToolResult } from '../../transcript/secret-file-read.ts';
import { summarizeInput, toolTarget } from '../../transcript/tool-input-summary.ts';
import { TASK_TOOLS } from './task-tools.ts';
import {
  getContextTokens,
  isObject,
  type AssistantEntry,
  type TranscriptEntry,
  type UserEntry,
} from './entry.ts';
import type { FoldListener } from '../../transcript/reader.ts';

export type { FoldListener };
export { finalizeResponse };

const TOKENS_PER_SUMMARY_CHAR = 1 / 3.5;
const PROMPT_TOO_LONG = /^\s*Prompt is too long/i;

const FILE_READERS = new Set(['Read', 'NotebookRead']);
const FILE_WRITERS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);
const SEARCH_TOOLS = new Set(['Grep', 'Glob', 'WebSearch', 'WebFetch', 'ToolSearch']);

/** What a Claude Code tool does, as a restore tells it (core/session.ts ToolKind). */
function toolKind(tool: string): ToolKind {
  if (tool === 'Bash') return 'shell';
  if (FILE_WRITERS.has(tool)) return 'file_write';
  if (TASK_TOOLS.test(tool)) return 'task_list';
  return SEARCH_TOOLS.has(tool) ? 'search' : 'other';
}

/**
 * Claude Code's result when the user turned a call down or pressed Esc during it
 * (docs/claude-code.md, "Tool results"): marked as an error, yet no failure of the work.
 */
const USER_STOPPED =
  /^\s*(?:The user doesn't want to (?:proceed|take this action)|\[Request interrupted by user)/;
/** A failed Bash result starts with its exit status. */
const EXIT_CODE = /^\s*Exit code (\d+)/;

/** Files, background shells and subagents a tool call brings into play. */
function foldToolTargets(
  state: SessionState,
  tool: string,
  input: unknown,
  id: string,
  line: number,
  at: number | null,
): void {
  if (!isObject(input)) return;
  const file = input.file_path ?? input.notebook_path;
  if (typeof file === 'string' && file.length > 0 && file.length < 1000) {
    if (FILE_READERS.has(tool) || FILE_WRITERS.has(tool))
      touchBounded(state.filesTouched, file, LIMITS.files);
    if (FILE_WRITERS.has(tool)) touchBounded(state.filesChanged, file, LIMITS.files);
  }
  if (tool === 'Bash' && input.run_in_background === true && typeof input.command === 'string') {
    pushBounded(
      state.backgroundTasks,
      {
        id,
        kind: 'shell',
        description: clip(input.command, 300),
        startedAt: at,
        line,
        done: false,
      },
      LIMITS.backgroundTasks,
    );
  } else if (SUBAGENT_TOOLS.has(tool)) {
    const description =
      typeof input.description === 'string'
        ? input.description
        : typeof input.prompt === 'string'
          ? input.prompt
          : tool;
    pushBounded(
      state.backgroundTasks,
      {
        id,
        kind: 'subagent',
        description: clip(description, 300),
        startedAt: at,
        line,
        done: false,
      },
      LIMITS.backgroundTasks,
    );
  } else if ((tool === 'KillShell' || tool === 'KillBash') && typeof input.shell_id === 'string') {
    // The shell's id is Claude Code's own for the job (`handle`), not its starting call's.
    const shell = state.backgroundTasks.find(
      (t) => t.handle === input.shell_id || t.id === input.shell_id,
    );
    if (shell) shell.done = true;
  }
}

function foldAssistant(
  state: SessionState,
  e: AssistantEntry,
  line: number,
  listener?: FoldListener,
): void {
  if (e.sidechain) {
    state.sidechainResponses++;
    return;
  }
  if (e.synthetic || e.apiError) {
    if (PROMPT_TOO_LONG.test(e.text)) {
      state.promptTooLongCount++;
      state.lastPromptTooLongLine = line;
      noteError(state, 'prompt_too_long');
    } else if (e.apiError) {
      noteError(state, `api_error: ${clip(e.text.replace(/\s+/g, ' '), 60)}`);
    }
    return;
  }
  state.lastContentLine = line;
  const usage = e.usage;
  const contextTokens = usage ? getContextTokens(usage) : 0;
  const current = state.current;
  if (current && current.key === e.key) {
    current.lastLine = line;
    if (usage) current.outputTokens = Math.max(current.outputTokens, usage.output);
  } else if (contextTokens > 0) {
    finalizeResponse(state, listener);
    state.turns++;
    state.current = {
      key: e.key,
      turn: state.turns,
      firstLine: line,
      lastLine: line,
      contextTokens,
      outputTokens: usage?.output ?? 0,
      at: e.at,
      model: e.model,
      latencyMs:
        e.at !== null && state.lastInputAt !== null ? Math.max(0, e.at - state.lastInputAt) : null,
      toolUseIds: [],
    };
    state.postCompactTokens = null;
    state.appendedChars = 0;
  }
  if (e.model) state.model = e.model;
  if (e.text.trim()) foldAssistantText(state, e.text, line, e.at);
  for (const use of e.toolUses) {
    state.current?.toolUseIds.push(use.id);
    foldToolTargets(state, use.name, use.input, use.id, line, e.at);
    if (use.name === 'TodoWrite' && isObject(use.input)) {
      const todos = readTodos(use.input.todos);
      if (todos) state.todos = todos;
    }
    const pending: PendingToolCall = {
      id: use.id,
      tool: use.name,
      args: summarizeInput(use.input, LIMITS.toolArgChars, state),
      target: toolTarget(use.input),
      kind: toolKind(use.name),
      at: e.at,
      line,
    };
    const meta = readToolMeta(use.name, use.input);
    if (meta) pending.meta = meta;
    pushBounded(state.pendingTools, pending, LIMITS.pendingTools);
    if (meta?.command !== undefined) foldCommandCall(state, use.id, meta.command, line, e.at);
  }
}

/** Turns `<command-name>/compact</command-name>…<command-args>x</command-args>` into "/compact x". */
function readPromptText(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed || trimmed.startsWith('[Request interrupted')) return null;
  if (/^<(local-command-|system-reminder>|task-notification>)/.test(trimmed)) return null;
  const command = /<command-name>([^<]*)<\/command-name>/.exec(trimmed);
  if (command) {
    const args = /<command-args>([^<]*)<\/command-args>/.exec(trimmed)?.[1]?.trim();
    return args ? `${command[1]} ${args}` : (command[1] ?? null);
  }
  return trimmed;
}

function foldUser(state: SessionState, e: UserEntry, line: number, listener?: FoldListener): void {
  if (e.sidechain) return;
  state.userMessages++;
  if (e.at !== null) state.lastInputAt = e.at;
  if (e.isCompactSummary) {
    state.lastCompactSummaryLine = line;
    listener?.onCompactSummary?.(e.text ?? '', line);
    const last = state.compactions[state.compactions.length - 1];
    if (state.postCompactTokens !== null && last && last.postTokens === null) {
      state.postCompactTokens += Math.round(e.contentChars * TOKENS_PER_SUMMARY_CHAR);
    }
    return;
  }
  state.lastContentLine = line;
  state.appendedChars += e.contentChars;
  for (const result of e.toolResults) {
    foldTaskResult(state, result.toolUseId, result.text);
    const index = state.pendingTools.findIndex((p) => p.id === result.toolUseId);
    const pending = index >= 0 ? state.pendingTools.splice(index, 1)[0] : undefined;
    const tooLong = PROMPT_TOO_LONG.test(result.text);
    const success = !result.isError && !tooLong;
    state.toolCalls++;
    if (success) state.consecutiveToolFailures = 0;
    else {
      state.toolFailures++;
      state.consecutiveToolFailures++;
      noteError(
        state,
        tooLong ? 'prompt_too_long (subagent)' : `tool_error: ${pending?.tool ?? 'unknown'}`,
      );
    }
    if (tooLong) state.promptTooLongCount++;
    const tool = pending?.tool ?? 'unknown';
    const background = success && startedInBackground(state, result.toolUseId);
    const exit = success ? null : EXIT_CODE.exec(result.text);
    foldToolOutcome(state, pending, result.toolUseId, {
      success,
      stopped: !success && USER_STOPPED.test(result.text),
      exitCode: exit ? Number(exit[1]) : null,
      // A failure that showed a secret file is kept as its stand-in, as the result is.
      output: success ? '' : keptToolResult(pending?.args ?? '', result.text, LIMITS.failureChars),
      at: e.at,
      line,
    });
    pushBounded(
      state.recentTools,
      {
        id: result.toolUseId,
        tool,
        args: pending?.args ?? '',
        ...(pending?.target !== undefined ? { target: pending.target } : {}),
        ...(pending?.kind !== undefined ? { kind: pending.kind } : {}),
        result: keptToolResult(pending?.args ?? '', result.text, LIMITS.toolResultChars, state),
        success,
        latencyMs: pending?.at != null && e.at !== null ? Math.max(0, e.at - pending.at) : null,
        at: e.at,
        line,
        ...(background ? { background: true as const } : {}),
      },
      LIMITS.toolCalls,
    );
    if (pending?.meta?.command !== undefined && !background) {
      foldCheck(state, pending.meta.command, success, result.text, e.at, line);
    }
    if (pending && success) {
      if (tool === 'TodoWrite' && isObject(e.toolUseResult)) {
        const todos = readTodos(e.toolUseResult.newTodos);
        if (todos) state.todos = todos;
      } else if (tool === 'TaskCreate' || tool === 'TaskUpdate') {
        applyTaskResult(state, pending, e.toolUseResult);
      }
    }
  }
  if (e.toolResults.length === 0 && e.text !== null && !e.isMeta) {
    if (foldTaskNotification(state, e.text, line, e.at)) return;
    const prompt = readPromptText(e.text);
    if (prompt !== null) foldPrompt(state, prompt, line, e.at);
  }
}

function foldEnvelope(state: SessionState, e: TranscriptEntry): void {
  if (e.at !== null) {
    if (state.startedAt === null || e.at < state.startedAt) state.startedAt = e.at;
    if (state.lastActivityAt === null || e.at > state.lastActivityAt) state.lastActivityAt = e.at;
  }
  if (e.sidechain) return;
  if (e.sessionId) state.sessionId = e.sessionId;
  if (e.cwd) state.cwd = e.cwd;
  if (e.gitBranch) state.gitBranch = e.gitBranch;
  if (e.cliVersion) state.cliVersion = e.cliVersion;
  if (e.slug) state.slug = e.slug;
}

/** Folds one entry read from `line` (1-based) into the state. */
export function foldEntry(
  state: SessionState,
  entry: TranscriptEntry,
  line: number,
  listener?: FoldListener,
): void {
  foldEnvelope(state, entry);
  switch (entry.kind) {
    case 'assistant':
      foldAssistant(state, entry, line, listener);
      return;
    case 'user':
      foldUser(state, entry, line, listener);
      return;
    case 'compact': {
      if (entry.sidechain) return;
      finalizeResponse(state, listener);
      const record: CompactionRecord = {
        line,
        trigger: entry.trigger,
        preTokens: entry.preTokens,
        postTokens: entry.postTokens,
        at: entry.at,
        cliVersion: entry.cliVersion ?? state.cliVersion,
        model: state.model,
        afterTurn: state.turns,
        lastContextTokens: state.lastResponse?.contextTokens ?? null,
        inputSince:
          state.appendedChars > 0 ||
          (state.lastInputAt !== null &&
            state.lastResponse?.at != null &&
            state.lastInputAt > state.lastResponse.at),
        toolsPending: state.pendingTools.length > 0,
        gapMs:
          entry.at !== null && state.lastResponse?.at != null
            ? Math.max(0, entry.at - state.lastResponse.at)
            : null,
        precomputed: entry.precomputed,
        idleMarker: entry.idle,
      };
      pushBounded(state.compactions, record, LIMITS.compactions);
      state.compactionCount++;
      state.toolCallsAtCompaction = state.toolCalls;
      state.responses = [];
      state.appendedChars = 0;
      state.postCompactTokens = entry.postTokens ?? 0;
      listener?.onCompaction?.(record);
      return;
    }
    case 'microcompact':
      if (entry.sidechain) return;
      finalizeResponse(state, listener);
      state.microcompactions++;
      state.microcompactTokensSaved += entry.tokensSaved;
      // The context shrank: growth measured across the drop would mislead the forecast.
      state.responses = [];
      return;
    case 'api_error':
      state.apiErrorCount++;
      pushBounded(
        state.apiErrors,
        { at: entry.at, line, status: entry.status, message: clip(entry.message, 200) },
        LIMITS.apiErrors,
      );
      noteError(state, `api_error ${entry.status ?? ''}`.trim() + ` ${entry.message}`);
      return;
    case 'continued':
      state.continuedIn = entry.continuedInSessionId;
      return;
    case 'other':
      return;
    default:
      entry satisfies never;
  }
}
