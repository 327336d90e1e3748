/**
 * One line of `codex exec --json` (0.169.0) → what `shim loop` acts on (agents/headless-event.ts).
 *
 * Captured offline against test/e2e/openai-mock.ts (test/fixtures/stream-json/codex-exec*.jsonl):
 * `thread.started` (`thread_id`, the session a later `codex exec resume` continues),
 * `turn.started`, `item.started` / `item.completed` (`agent_message` with `text`,
 * `command_execution` with `command`, `exit_code`, `aggregated_output`; `file_change`,
 * `mcp_tool_call`, `web_search`, `todo_list`), `turn.completed` with the turn's summed `usage`, and
 * on failure `error` then `turn.failed` (`error.message`, e.g. "You've hit your usage limit. …").
 * The usage is the turn's sum, not what one request carried: no context reading comes from here.
 * Never throws; a line it does not know is `other`.
 * @module
 */
import type { AgentEvent, StreamUsage } from '../headless-event.ts';

type Obj = Record<string, unknown>;

const NO_USAGE: StreamUsage = { input: 0, cacheCreation: 0, cacheRead: 0, output: 0, cleared: 0 };
/** Items that are the model talking, not a tool it ran. */
const NOT_TOOLS = new Set(['agent_message', 'reasoning', 'error']);
const MAX_TEXT = 2000;

const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function parse(line: string): Obj | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function toolInput(item: Obj): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of ['command', 'server', 'tool', 'query', 'changes'] as const) {
    if (item[key] !== undefined) input[key] = item[key];
  }
  return input;
}

function response(id: string, text: string, tool: Obj | null): AgentEvent {
  return {
    kind: 'response',
    sessionId: null,
    messageId: id,
    model: null,
    usage: NO_USAGE,
    contextTokens: null,
    text,
    toolUses: tool ? [{ id, name: str(tool.type) ?? 'tool', input: toolInput(tool) }] : [],
    sidechain: false,
  };
}

function result(isError: boolean, text: string): AgentEvent {
  return {
    kind: 'result',
    sessionId: null,
    isError,
    subtype: isError ? 'error' : 'success',
    text,
    costUsd: null,
    numTurns: null,
    durationMs: null,
    terminalReason: null,
    apiErrorStatus: null,
    errors: [],
  };
}

/** A parser for one `codex exec --json` run: it remembers the turn's last message for the result. */
export function createExecJsonParser(): (line: string) => AgentEvent[] {
  let lastMessage = '';
  return (line) => {
    const raw = parse(line);
    if (!raw) return [];
    const type = str(raw.type) ?? '';
    const item = isObject(raw.item) ? raw.item : null;
    switch (type) {
      case 'thread.started':
        return [
          {
            kind: 'init',
            sessionId: str(raw.thread_id) ?? '',
            model: null,
            cwd: null,
            cliVersion: null,
          },
        ];
      case 'turn.started':
        lastMessage = '';
        return [];
      case 'item.started':
        if (!item || NOT_TOOLS.has(str(item.type) ?? '')) return [];
        return [response(str(item.id) ?? '', '', item)];
      case 'item.completed': {
        if (!item) return [];
        const id = str(item.id) ?? '';
        const itemType = str(item.type) ?? '';
        if (itemType === 'agent_message') {
          lastMessage = str(item.text) ?? '';
          return [response(id, lastMessage, null)];
        }
        if (NOT_TOOLS.has(itemType)) return [];
        const exit = typeof item.exit_code === 'number' ? item.exit_code : 0;
        return [
          response(id, '', item),
          {
            kind: 'tool_result',
            toolUseId: id,
            isError: item.status === 'failed' || exit !== 0,
            text: (str(item.aggregated_output) ?? '').slice(0, MAX_TEXT),
            sidechain: false,
          },
        ];
      }
      case 'turn.completed':
        return [result(false, lastMessage)];
      case 'turn.failed':
        return [result(true, str(isObject(raw.error) ? raw.error.message : null) ?? 'turn failed')];
      case 'error':
        return [
          {
            kind: 'api_error',
            status: null,
            error: null,
            apiError: null,
            text: str(raw.message) ?? '',
            resetsAt: null,
          },
        ];
      default:
        return [{ kind: 'other', type, subtype: null }];
    }
  };
}
