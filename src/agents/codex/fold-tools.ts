/**
 * The tool calls of a Codex rollout and their outputs, paired by `call_id` (docs/agents.md,
 * "Codex CLI"): the shell tools (`exec_command`, `shell`, `shell_command`, `local_shell_call`)
 * fold as shim's neutral `Bash` with their command line, `update_plan` replaces the task list,
 * `apply_patch` names the files it changes; an output's exit status and body are read from
 * either of its shapes. Part of the fold (fold.ts).
 * @module
 */
import {
  LIMITS,
  pushBounded,
  touchBounded,
  type PendingToolCall,
  type SessionState,
  type TodoItem,
  type ToolKind,
} from '../../core/session.ts';
import { clip } from '../../core/truncate.ts';
import {
  foldCheck,
  foldCommandCall,
  foldToolOutcome,
  noteError,
} from '../../transcript/fold-parts.ts';
import { secretFree } from '../../transcript/scrub.ts';
import { keptToolResult } from '../../transcript/secret-file-read.ts';
import { summarizeInput, toolTarget } from '../../transcript/tool-input-summary.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

const SHELL_TOOLS = new Set(['exec_command', 'shell', 'shell_command', 'local_shell_call']);
const SEARCH_TOOLS = new Set(['web_search', 'tool_search']);

function toolKind(name: string): ToolKind {
  if (SHELL_TOOLS.has(name)) return 'shell';
  if (name === 'apply_patch') return 'file_write';
  if (name === 'update_plan') return 'task_list';
  return SEARCH_TOOLS.has(name) ? 'search' : 'other';
}

/** The command line of a shell tool call, from any of its shapes across versions. */
function readShellCommand(args: Obj): string | null {
  if (typeof args.cmd === 'string') return args.cmd;
  if (typeof args.command === 'string') return args.command;
  if (Array.isArray(args.command)) {
    const parts = args.command.filter((p): p is string => typeof p === 'string');
    // ["bash", "-lc", "…"]: the script is what was asked for.
    if (parts.length === 3 && /sh$/.test(parts[0] ?? '') && parts[1] === '-lc') return parts[2]!;
    return parts.join(' ');
  }
  return null;
}

/** Files an apply_patch names: `*** Add File: x`, `*** Update File: x`, `*** Delete File: x`. */
export function readPatchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) {
    const file = match[1]!.trim();
    if (file && file.length < 1000) files.push(file);
  }
  for (const match of patch.matchAll(/^\*\*\* Move to: (.+)$/gm)) files.push(match[1]!.trim());
  return files;
}

function absolute(file: string, cwd: string | null): string {
  if (file.startsWith('/') || !cwd) return file;
  return `${cwd.replace(/\/$/, '')}/${file.replace(/^\.\//, '')}`;
}

function readPlan(args: Obj): TodoItem[] | null {
  if (!Array.isArray(args.plan)) return null;
  const todos: TodoItem[] = [];
  for (const item of args.plan.slice(0, LIMITS.todos)) {
    if (!isObject(item) || typeof item.step !== 'string') continue;
    todos.push({
      content: secretFree(clip(item.step, 300)),
      status: typeof item.status === 'string' ? item.status : 'pending',
    });
  }
  return todos;
}

function parseArguments(raw: unknown): Obj {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const value = JSON.parse(raw) as unknown;
    return isObject(value) ? value : { input: raw };
  } catch {
    return { input: raw };
  }
}

export function foldToolCall(state: SessionState, p: Obj, line: number, at: number | null): void {
  const name = str(p.name) ?? (p.type === 'local_shell_call' ? 'local_shell_call' : null);
  const id = str(p.call_id) ?? str(p.id);
  if (!name || !id) return;
  const args =
    p.type === 'custom_tool_call'
      ? { input: typeof p.input === 'string' ? p.input : '' }
      : p.type === 'local_shell_call' && isObject(p.action)
        ? p.action
        : parseArguments(p.arguments);
  const shell = SHELL_TOOLS.has(name);
  const tool = shell ? 'Bash' : name;
  const patchFiles =
    name === 'apply_patch' && typeof args.input === 'string' ? readPatchFiles(args.input) : [];
  const pending: PendingToolCall = {
    id,
    tool,
    args: summarizeInput(args, LIMITS.toolArgChars, state),
    target:
      patchFiles.length > 0
        ? secretFree(clip(patchFiles.join(', '), 160))
        : name === 'update_plan'
          ? ''
          : toolTarget(args),
    kind: toolKind(name),
    at,
    line,
  };
  const command = shell ? readShellCommand(args) : null;
  if (command !== null) {
    pending.meta = { command: secretFree(clip(command, LIMITS.commandChars)) };
    foldCommandCall(state, id, pending.meta.command!, line, at);
  }
  if (name === 'update_plan') {
    const plan = readPlan(args);
    if (plan) state.todos = plan;
  }
  if (patchFiles.length > 0) {
    for (const file of patchFiles) {
      const path = absolute(file, state.cwd);
      touchBounded(state.filesTouched, path, LIMITS.files);
      touchBounded(state.filesChanged, path, LIMITS.files);
    }
  }
  state.lastContentLine = line;
  pushBounded(state.pendingTools, pending, LIMITS.pendingTools);
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output))
    return output
      .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
      .join('\n');
  if (isObject(output) && typeof output.content === 'string') return output.content;
  return output === undefined ? '' : JSON.stringify(output);
}

/**
 * A tool output as Codex writes it: `{"output","metadata":{"exit_code"}}` (≤0.57), or a header
 * (`Exit code:` / `Process exited with code`, wall time, token count) above `Output:` (later);
 * the body is what the command printed.
 */
export function readToolOutput(text: string): { body: string; exitCode: number | null } {
  if (text.startsWith('{"output"')) {
    try {
      const value = JSON.parse(text) as unknown;
      if (isObject(value) && typeof value.output === 'string') {
        const meta = isObject(value.metadata) ? value.metadata : {};
        return {
          body: value.output,
          exitCode: typeof meta.exit_code === 'number' ? meta.exit_code : null,
        };
      }
    } catch {
      // not the JSON shape after all: read as text
    }
  }
  const at = text.indexOf('Output:\n');
  const header = at >= 0 ? text.slice(0, at) : text.slice(0, 300);
  const exit = /(?:Process exited with code|Exit code:)\s*(-?\d+)/.exec(header);
  return {
    body: at >= 0 && exit ? text.slice(at + 'Output:\n'.length) : text,
    exitCode: exit ? Number(exit[1]) : null,
  };
}

/** A call the user stopped: Codex's output says it was aborted. */
const USER_STOPPED = /^\s*(?:aborted|interrupted)\b/i;

/** Success from the exit status Codex reports, else from what the output says. */
function readSuccess(text: string, exitCode: number | null, p: Obj): boolean {
  if (exitCode !== null) return exitCode === 0;
  if (isObject(p.output) && p.output.success === false) return false;
  return !/^(?:error|failed|aborted)\b/i.test(text.trim());
}

export function foldToolOutput(state: SessionState, p: Obj, line: number, at: number | null): void {
  const id = str(p.call_id);
  if (!id) return;
  const index = state.pendingTools.findIndex((t) => t.id === id);
  if (index < 0) return;
  const pending = state.pendingTools.splice(index, 1)[0]!;
  const text = outputText(p.output);
  const { body, exitCode } = readToolOutput(text);
  const success = readSuccess(text, exitCode, p);
  state.lastContentLine = line;
  state.lastInputAt = at ?? state.lastInputAt;
  state.appendedChars += text.length;
  state.toolCalls++;
  if (success) state.consecutiveToolFailures = 0;
  else {
    state.toolFailures++;
    state.consecutiveToolFailures++;
    noteError(state, `tool_error: ${pending.tool}`);
  }
  foldToolOutcome(state, pending, id, {
    success,
    stopped: !success && exitCode === null && USER_STOPPED.test(body),
    exitCode,
    // A failure that showed a secret file is kept as its stand-in, as the result is.
    output: success ? '' : keptToolResult(pending.args, body, LIMITS.failureChars),
    at,
    line,
  });
  pushBounded(
    state.recentTools,
    {
      id,
      tool: pending.tool,
      args: pending.args,
      ...(pending.target !== undefined ? { target: pending.target } : {}),
      ...(pending.kind !== undefined ? { kind: pending.kind } : {}),
      result: keptToolResult(pending.args, body, LIMITS.toolResultChars, state),
      success,
      latencyMs: pending.at !== null && at !== null ? Math.max(0, at - pending.at) : null,
      at,
      line,
      callLine: pending.line,
    },
    LIMITS.toolCalls,
  );
  if (pending.meta?.command !== undefined)
    foldCheck(state, pending.meta.command, success, text, at, line);
}
