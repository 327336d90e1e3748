/**
 * `gemini -p` for `shim loop --agent gemini` (0.61.0 flags, verified offline; docs/agents.md):
 * `--output-format stream-json` on stdout, read here line by line.
 *
 * The stream (captured against test/e2e/mock-gemini.ts): `init` (`session_id`, `model`), `message`
 * (`role`, `content`; the model's text arrives in pieces marked `delta`), `tool_use` (`tool_name`,
 * `tool_id`, `parameters`), `tool_result` (`tool_id`, `status` success|error, `output`), `error`
 * (`severity`, `message`) and a closing `result` (`status`, `error`, `stats` summed over the turn:
 * no context reading per request comes from it). Never throws.
 * @module
 */
import { withoutVariables } from '../headless-event.ts';
import type { HeadlessRun } from '../agent.ts';
import type { AgentEvent, StreamUsage } from '../headless-event.ts';

export const GEMINI_BIN_ENV = 'SHIM_GEMINI_BIN';

export function geminiHeadlessArgs(request: {
  prompt: string;
  resumeSessionId: string | null;
  model: string | null;
  extra?: readonly string[];
}): string[] {
  return [
    '-p',
    request.prompt,
    '--output-format',
    'stream-json',
    '--yolo',
    '--skip-trust',
    ...(request.resumeSessionId ? ['--resume', request.resumeSessionId] : []),
    ...(request.model ? ['--model', request.model] : []),
    ...(request.extra ?? []),
  ];
}

type Obj = Record<string, unknown>;
const NO_USAGE: StreamUsage = { input: 0, cacheCreation: 0, cacheRead: 0, output: 0, cleared: 0 };
const MAX_TEXT = 2000;
/** How Gemini CLI words a spent quota (a 429 RESOURCE_EXHAUSTED from the API). */
const QUOTA_RE = /\bquota\b|RESOURCE_EXHAUSTED|\b429\b/i;

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

function response(id: string, text: string, tool: ToolCall | null): AgentEvent {
  return {
    kind: 'response',
    sessionId: null,
    messageId: id,
    model: null,
    usage: NO_USAGE,
    contextTokens: null,
    text,
    toolUses: tool ? [tool] : [],
    sidechain: false,
  };
}
type ToolCall = { id: string; name: string; input: Record<string, unknown> };

/** A parser for one `gemini -p` run: it joins the model's text pieces into one message. */
export function createGeminiStreamParser(): (line: string) => AgentEvent[] {
  let message = 0;
  let text = '';
  let inMessage = false;
  return (line) => {
    const raw = parse(line);
    if (!raw) return [];
    const type = str(raw.type) ?? '';
    if (type !== 'message' || raw.role !== 'assistant') inMessage = false;
    switch (type) {
      case 'init':
        return [
          {
            kind: 'init',
            sessionId: str(raw.session_id) ?? '',
            model: str(raw.model),
            cwd: null,
            cliVersion: null,
          },
        ];
      case 'message': {
        if (raw.role !== 'assistant') return [];
        const piece = str(raw.content) ?? '';
        if (!inMessage) {
          message++;
          text = '';
          inMessage = true;
        }
        text = raw.delta === true ? text + piece : piece;
        return [response(`gemini-message-${message}`, text, null)];
      }
      case 'tool_use': {
        const id = str(raw.tool_id) ?? '';
        const input = isObject(raw.parameters) ? raw.parameters : {};
        return [response(id, '', { id, name: str(raw.tool_name) ?? 'tool', input })];
      }
      case 'tool_result': {
        const error = isObject(raw.error) ? str(raw.error.message) : null;
        return [
          {
            kind: 'tool_result',
            toolUseId: str(raw.tool_id) ?? '',
            isError: raw.status === 'error',
            text: (str(raw.output) ?? error ?? '').slice(0, MAX_TEXT),
            sidechain: false,
          },
        ];
      }
      case 'error': {
        if (raw.severity === 'warning') return [];
        const message = str(raw.message) ?? '';
        return [
          {
            kind: 'api_error',
            status: QUOTA_RE.test(message) ? 429 : null,
            error: null,
            apiError: null,
            text: message,
            resetsAt: null,
          },
        ];
      }
      case 'result': {
        const failed = raw.status !== 'success';
        const error = isObject(raw.error) ? (str(raw.error.message) ?? '') : '';
        return [
          {
            kind: 'result',
            sessionId: null,
            isError: failed,
            subtype: failed ? 'error' : 'success',
            text: failed ? error || 'the turn failed' : text,
            costUsd: null,
            numTurns: null,
            durationMs: null,
            terminalReason: null,
            apiErrorStatus: failed && QUOTA_RE.test(error) ? 429 : null,
            errors: [],
          },
        ];
      }
      default:
        return [{ kind: 'other', type, subtype: null }];
    }
  };
}

/**
 * What Gemini CLI puts into the environment of its shell commands and hooks (0.61.0): the marker
 * that it runs them, its session and project. None of it belongs to a session of its own.
 */
export const GEMINI_CHILD_VARIABLES = [
  'GEMINI_CLI',
  'GEMINI_SESSION_ID',
  'GEMINI_PROJECT_DIR',
  'GEMINI_CWD',
] as const;

export const geminiHeadless: HeadlessRun = {
  defaultBin: 'gemini',
  binEnv: GEMINI_BIN_ENV,
  npmPackage: '@google/gemini-cli',
  installHint: 'install it (npm install -g @google/gemini-cli)',
  args: geminiHeadlessArgs,
  keepsScheduledJobs: false,
  reservedFlags: ['-p', '--prompt', '--output-format', '-o', '--resume', '-r'],
  parser: createGeminiStreamParser,
  // No way to resume a session forked at an earlier message: the loop restarts fresh instead.
  fork: null,
  env: (parent) => withoutVariables(parent, GEMINI_CHILD_VARIABLES),
};
