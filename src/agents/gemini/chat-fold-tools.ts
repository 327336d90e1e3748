/**
 * The tool calls of a Gemini CLI chat and their results (docs/agents.md, "Gemini CLI"): the files
 * they touch, `write_todos`' task list, background shells, the shell commands and how each call
 * ended. Part of the fold (chat-fold.ts), which calls these as a model message brings them.
 * @module
 */
import {
  LIMITS,
  pushBounded,
  touchBounded,
  type SessionState,
  type StartedCall,
  type ToolCallRecord,
  type ToolKind,
} from '../../core/session.ts';
import { clip } from '../../core/truncate.ts';
import {
  foldCheck,
  foldCommandCall,
  foldToolOutcome,
  startedInBackground,
  noteError,
} from '../../transcript/fold-parts.ts';
import { keptToolResult } from '../../transcript/secret-file-read.ts';
import { secretFree } from '../../transcript/scrub.ts';
import { summarizeInput, toolTarget } from '../../transcript/tool-input-summary.ts';
import { isObj, type GeminiToolCall } from './chat-record.ts';

const FILE_READERS = new Set(['read_file']);
const FILE_WRITERS = new Set(['write_file', 'replace']);
const SHELL = 'run_shell_command';
/** Gemini CLI's tool that sets the session's task list (a restore names it for rebuilding). */
export const TODOS = 'write_todos';

const SEARCH_TOOLS = new Set([
  'glob',
  'grep_search',
  'search_file_content',
  'google_web_search',
  'web_fetch',
]);

function toolKind(name: string): ToolKind {
  if (name === SHELL) return 'shell';
  if (FILE_WRITERS.has(name)) return 'file_write';
  if (name === TODOS || name.startsWith('tracker_')) return 'task_list';
  return SEARCH_TOOLS.has(name) ? 'search' : 'other';
}

/** run_shell_command reports a command's exit status in its output ("Exit Code: 1"). */
const EXIT_CODE = /^Exit Code:\s*(-?\d+)/m;

function argsOf(call: GeminiToolCall): Record<string, unknown> {
  return isObj(call.args) ? call.args : {};
}

/** write_todos `{todos:[{description, status}]}`, each call replacing the list. */
function foldTodos(state: SessionState, args: Record<string, unknown>): void {
  if (!Array.isArray(args.todos)) return;
  state.todos = args.todos.slice(0, LIMITS.todos).flatMap((item) =>
    isObj(item) && typeof item.description === 'string'
      ? [
          {
            content: secretFree(clip(item.description, 300)),
            status: typeof item.status === 'string' ? item.status : 'pending',
          },
        ]
      : [],
  );
}

export function foldToolCall(
  state: SessionState,
  call: GeminiToolCall,
  line: number,
  at: number | null,
) {
  const args = argsOf(call);
  const file = args.file_path;
  if (typeof file === 'string' && file.length > 0 && file.length < 1000) {
    if (FILE_READERS.has(call.name) || FILE_WRITERS.has(call.name))
      touchBounded(state.filesTouched, file, LIMITS.files);
    if (FILE_WRITERS.has(call.name)) touchBounded(state.filesChanged, file, LIMITS.files);
  }
  if (call.name === TODOS) foldTodos(state, args);
  if (call.name === SHELL && args.is_background === true && typeof args.command === 'string') {
    pushBounded(
      state.backgroundTasks,
      {
        id: call.id,
        kind: 'shell',
        description: clip(args.command, 300),
        startedAt: at,
        line,
        done: false,
      },
      LIMITS.backgroundTasks,
    );
  }
  const meta =
    call.name === SHELL && typeof args.command === 'string'
      ? secretFree(clip(args.command, LIMITS.commandChars))
      : null;
  pushBounded(
    state.pendingTools,
    {
      id: call.id,
      tool: call.name,
      args: summarizeInput(call.args ?? {}, LIMITS.toolArgChars, state),
      target: call.name === TODOS ? '' : toolTarget(args),
      kind: toolKind(call.name),
      at,
      line,
      ...(meta !== null ? { meta: { command: meta } } : {}),
    },
    LIMITS.pendingTools,
  );
  if (meta !== null) foldCommandCall(state, call.id, meta, line, at);
}

export function foldToolResult(
  state: SessionState,
  call: GeminiToolCall,
  line: number,
  at: number | null,
) {
  const index = state.pendingTools.findIndex((p) => p.id === call.id);
  const pending = index >= 0 ? state.pendingTools.splice(index, 1)[0] : undefined;
  const exit = EXIT_CODE.exec(call.resultText);
  const exitCode = exit ? Number(exit[1]) : null;
  // Gemini CLI marks a command that exited non-zero `success`; its exit code says it failed.
  const success = call.status === 'success' && (exitCode === null || exitCode === 0);
  state.toolCalls++;
  if (success) state.consecutiveToolFailures = 0;
  else {
    state.toolFailures++;
    state.consecutiveToolFailures++;
    noteError(state, `tool_error: ${call.name}`);
  }
  const background = success && startedInBackground(state, call.id);
  foldToolOutcome(state, pending, call.id, {
    success,
    // `cancelled`: the user denied or stopped it.
    stopped: call.status === 'cancelled',
    exitCode,
    // A failure that showed a secret file is kept as its stand-in, as the result is.
    output: success
      ? ''
      : keptToolResult(pending?.args ?? '', call.resultText, LIMITS.failureChars),
    at,
    line,
  });
  pushBounded(
    state.recentTools,
    {
      id: call.id,
      tool: call.name,
      args: pending?.args ?? '',
      ...(pending?.target !== undefined ? { target: pending.target } : {}),
      ...(pending?.kind !== undefined ? { kind: pending.kind } : {}),
      result: keptToolResult(pending?.args ?? '', call.resultText, LIMITS.toolResultChars, state),
      success,
      latencyMs: pending?.at != null && at !== null ? Math.max(0, at - pending.at) : null,
      at,
      line,
      ...(background ? { background: true as const } : {}),
    },
    LIMITS.toolCalls,
  );
  if (pending?.meta?.command !== undefined && !background)
    foldCheck(state, pending.meta.command, success, call.resultText, at, line);
  const task = state.backgroundTasks.find((t) => t.id === call.id);
  if (task && !success) task.done = true;
}

/**
 * A call BeforeTool saw start, folded as the chat would hold it had the CLI written it then (it
 * writes a call once it completes: one killed mid-run is nowhere else). Left out when the chat
 * moved past it: a request newer than the call (its turn ended), or the same call finished since.
 */
export function foldStartedCall(state: SessionState, call: StartedCall): void {
  const newestRequest = state.requestLog.at(-1)?.at ?? null;
  if (newestRequest !== null && newestRequest > call.at) return;
  // By what it acts on (a command verbatim): the hook keeps only that of the input.
  const target = toolTarget(call.input);
  const same = (r: { tool: string; target?: string }) =>
    r.tool === call.tool && r.target === target;
  const finishedSince = (r: ToolCallRecord) => same(r) && r.at !== null && r.at >= call.at;
  if (state.recentTools.some(finishedSince) || state.pendingTools.some(same)) return;
  foldToolCall(
    state,
    { id: `started-${call.at}`, name: call.tool, args: call.input, status: null, resultText: '' },
    state.lastContentLine,
    call.at,
  );
}
